import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { routes } from '@/app/router'
import { todayLocal } from '@/lib/dates'

afterEach(() => vi.unstubAllGlobals())

const professional = { ...session, user: { ...session.user, role: 'professional' } }

// Dates around today, so 'Eliminar' follows the clock as the server's check does.
const shift = (years: number) => {
  const d = new Date()
  d.setFullYear(d.getFullYear() + years)
  return todayLocal(d)
}

const kept = (over: Record<string, unknown>) => ({
  id: 'r1',
  client: 'Carla Souza',
  clientRef: 'a1',
  lastEntryAt: '2026-03-10T13:00:00Z',
  erased: false,
  keptUntil: '2031-03-10',
  lawUntil: '2046-03-10',
  destroyed: false,
  ...over,
})

const entry = {
  id: 'v7',
  entryId: 'e7',
  version: 1,
  kind: 'prontuario',
  template: 'evolucao',
  sessionDate: '2026-11-10',
  body: 'Atendimento supervisionado',
  authorName: 'Bia Estagiária',
  authorCouncil: 'CRP 06/99999',
  createdAt: '2026-11-10T13:02:00Z',
  signature: 'assinado por Bia Estagiária, CRP 06/99999, em 10/11/2026 10:02',
  cosign: { supervisorId: 'p1', signed: false },
}

type Opts = { as?: typeof session; list?: { status: number; body: unknown }; shared?: unknown[]; destroy?: { status: number; body?: unknown } }

function serve(opts: Opts = {}) {
  let shared = opts.shared ?? []
  let records = (opts.list?.body as { records?: unknown[] } | undefined)?.records
  return stubFetch((c: FetchCall) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: opts.as ?? professional }
    if (c.url === '/api/records/list') return records ? { status: 200, body: { records } } : (opts.list ?? { status: 200, body: { records: [] } })
    if (c.url === '/api/records/shared') return { status: 200, body: { shared } }
    if (c.url === '/api/records/old/destroy' && c.method === 'POST') {
      if (opts.destroy) return { ...opts.destroy, delayMs: 30 }
      records = records?.map((r) => ((r as { id: string }).id === 'old' ? { ...(r as object), client: '', clientRef: undefined, destroyed: true } : r))
      return { status: 200, body: { success: true }, delayMs: 30 }
    }
    if (c.url === '/api/records/versions/v7/cosign' && c.method === 'POST') {
      shared = shared.map((s) => ({ ...(s as object), signedAt: '2026-11-12T17:02:00Z' }))
      return { status: 200, body: { success: true }, delayMs: 30 }
    }
    return undefined
  })
}

it('lists the records kept with their retention dates, the erased and the destroyed by what they are, and no Eliminar within the 5 years', async () => {
  serve({
    list: {
      status: 200,
      body: {
        records: [
          kept({}),
          kept({ id: 'r2', client: 'Dora Lima', clientRef: undefined, erased: true }),
          kept({ id: 'r3', client: '', clientRef: undefined, destroyed: true }),
        ],
      },
    },
  })
  renderRoutes(routes, '/prontuarios')
  expect(await screen.findByRole('heading', { name: 'Prontuários', level: 1 }, { timeout: 10_000 })).toBeInTheDocument()
  const list = await screen.findByRole('region', { name: 'Meus prontuários' })
  const [carla, erased, destroyed] = within(list).getAllByRole('listitem')
  expect(within(carla).getByRole('heading', { name: 'Carla Souza' })).toBeInTheDocument()
  expect(within(carla).getByText('Guarda mínima até 10/03/2031 (5 anos após a última anotação)')).toBeInTheDocument()
  expect(within(carla).getByText('Lei 13.787/2018: até 10/03/2046')).toBeInTheDocument()
  expect(within(carla).getByText(/^Última anotação em \d\d\/03\/2026$/)).toBeInTheDocument()
  expect(within(carla).getByRole('link', { name: 'Abrir prontuário' })).toHaveAttribute('href', '/clients/a1/prontuario')
  expect(within(erased).getByRole('heading', { name: 'Cliente removido (LGPD)' })).toBeInTheDocument()
  expect(within(erased).queryByText('Dora Lima')).not.toBeInTheDocument()
  expect(within(erased).queryByRole('link')).not.toBeInTheDocument()
  expect(within(destroyed).getByRole('heading', { name: 'Prontuário eliminado' })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Eliminar prontuário' })).not.toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Prontuários' })).toHaveAttribute('href', '/prontuarios')
  expect(screen.getByRole('link', { name: /Voltar à agenda/ })).toHaveAttribute('href', '/agenda')
})

it('destroys a record past its retention only with ELIMINAR typed, and says so only after the 2xx', async () => {
  const calls = serve({ list: { status: 200, body: { records: [kept({ id: 'old', keptUntil: shift(0), lawUntil: shift(15) }), kept({ keptUntil: shift(1) })] } } })
  renderRoutes(routes, '/prontuarios')
  const buttons = await screen.findAllByRole('button', { name: 'Eliminar prontuário' }, { timeout: 10_000 })
  expect(buttons).toHaveLength(1)
  await userEvent.click(buttons[0])
  const dialog = await screen.findByRole('dialog')
  expect(within(dialog).getByText(/não pode ser desfeita/)).toBeInTheDocument()
  expect(within(dialog).getByText(/registrada e assinada por você/)).toBeInTheDocument()
  await userEvent.type(within(dialog).getByLabelText('Digite ELIMINAR para confirmar'), 'eliminar')
  await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar prontuário' }))
  expect(within(dialog).getByText('Digite ELIMINAR para confirmar.')).toBeInTheDocument()
  expect(calls.some((c) => c.url.endsWith('/destroy'))).toBe(false)
  const word = within(dialog).getByLabelText('Digite ELIMINAR para confirmar')
  await userEvent.clear(word)
  await userEvent.type(word, 'ELIMINAR')
  await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar prontuário' }))
  expect(await within(dialog).findByRole('button', { name: 'Eliminando...' })).toBeDisabled()
  expect(screen.queryByText('Prontuário eliminado')).not.toBeInTheDocument()
  expect(await screen.findByRole('heading', { name: 'Prontuário eliminado' })).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/old/destroy')?.body).toEqual({ confirm: 'ELIMINAR' })
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  expect(screen.queryByRole('button', { name: 'Eliminar prontuário' })).not.toBeInTheDocument()
})

it("shows the server's refusal in the dialog and keeps the record", async () => {
  serve({
    list: { status: 200, body: { records: [kept({ id: 'old', keptUntil: shift(-1) })] } },
    destroy: { status: 409, body: { error: { code: 'retention', message: 'Este prontuário ainda está no prazo de guarda: pode ser eliminado só 5 anos após a última anotação.' } } },
  })
  renderRoutes(routes, '/prontuarios')
  await userEvent.click(await screen.findByRole('button', { name: 'Eliminar prontuário' }, { timeout: 10_000 }))
  const dialog = await screen.findByRole('dialog')
  await userEvent.type(within(dialog).getByLabelText('Digite ELIMINAR para confirmar'), 'ELIMINAR')
  await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar prontuário' }))
  expect(await within(dialog).findByText(/ainda está no prazo de guarda/)).toBeInTheDocument()
  await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  expect(screen.getByRole('heading', { name: 'Carla Souza' })).toBeInTheDocument()
  expect(screen.queryByRole('heading', { name: 'Prontuário eliminado' })).not.toBeInTheDocument()
})

it("tells the owner who is no professional the server's word, with the way to Profissionais", async () => {
  serve({
    as: session,
    list: { status: 403, body: { error: { code: 'not_a_professional', message: 'Diga em Profissionais qual profissional da equipe é você.' } } },
  })
  renderRoutes(routes, '/prontuarios')
  const alert = await screen.findByRole('alert', {}, { timeout: 10_000 })
  expect(within(alert).getByText('Diga em Profissionais qual profissional da equipe é você.')).toBeInTheDocument()
  expect(within(alert).getByRole('link', { name: 'Ir para Profissionais' })).toHaveAttribute('href', '/professionals')
  expect(await screen.findByText('Nada compartilhado com você.')).toBeInTheDocument()
})

it('shows the summaries shared with me and co-signs an entry, saying Coassinado only after the 2xx', async () => {
  const calls = serve({
    shared: [
      { recordId: 'r8', client: 'Eva Prado', professional: 'Rita Alves', summary: 'Acompanhamento semanal;\nboa evolução.', updatedAt: '2026-11-11T12:00:00Z' },
      { recordId: 'r9', client: 'Fábio Reis', professional: 'Bia Estagiária', entry, updatedAt: '2026-11-10T13:02:00Z' },
    ],
  })
  renderRoutes(routes, '/prontuarios')
  const summaries = await screen.findByRole('list', { name: 'Resumos compartilhados' }, { timeout: 10_000 })
  expect(within(summaries).getByText('Eva Prado')).toBeInTheDocument()
  expect(within(summaries).getByText(/Resumo de Rita Alves, em \d\d\/11\/2026/)).toBeInTheDocument()
  expect(within(summaries).getByText(/Acompanhamento semanal;\s+boa evolução\./)).toBeInTheDocument()
  const cosigns = screen.getByRole('list', { name: 'Para coassinar' })
  expect(within(cosigns).getByText('Fábio Reis')).toBeInTheDocument()
  expect(within(cosigns).getByText(/Anotação de Bia Estagiária, CRP 06\/99999/)).toBeInTheDocument()
  expect(within(cosigns).getByText('Atendimento supervisionado')).toBeInTheDocument()
  expect(within(cosigns).getByText('assinado por Bia Estagiária, CRP 06/99999, em 10/11/2026 10:02')).toBeInTheDocument()
  await userEvent.click(within(cosigns).getByRole('button', { name: 'Coassinar' }))
  expect(await within(cosigns).findByRole('button', { name: 'Coassinando...' })).toBeDisabled()
  expect(within(cosigns).queryByText(/^Coassinado/)).not.toBeInTheDocument()
  expect(await within(cosigns).findByText(/^Coassinado em 12\/11\/2026/)).toBeInTheDocument()
  expect(calls.filter((c) => c.url === '/api/records/versions/v7/cosign').map((c) => c.method)).toEqual(['POST'])
  expect(within(cosigns).queryByRole('button', { name: 'Coassinar' })).not.toBeInTheDocument()
})

it('shows the date of a co-signature already made, with no button', async () => {
  serve({ shared: [{ recordId: 'r9', client: 'Fábio Reis', professional: 'Bia Estagiária', entry, updatedAt: '2026-11-10T13:02:00Z', signedAt: '2026-11-12T17:02:00Z' }] })
  renderRoutes(routes, '/prontuarios')
  expect(await screen.findByText(/^Coassinado em 12\/11\/2026/, {}, { timeout: 10_000 })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Coassinar' })).not.toBeInTheDocument()
})
