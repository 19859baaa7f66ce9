import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { routes } from '@/app/router'

afterEach(() => vi.unstubAllGlobals())

const professional = { ...session, user: { ...session.user, role: 'professional' } }
const ref = '6f1c2a3b-0000-4000-8000-000000000001'

const appointment = (id: string, date: string) => ({
  id,
  date,
  time: '09:00',
  clientName: 'Carla Souza',
  clientPhone: '11988887777',
  clientEmail: '',
  serviceName: 'Sessão',
  professionalName: 'Paula Lima',
  priceCents: 20000,
  status: 'confirmed',
})

const history = {
  client: { identifier: 'x', name: 'Carla Souza', email: '', phone: '11988887777' },
  appointments: [appointment(ref, '2026-11-20'), appointment('a2', '2026-11-10')],
  deposits: [],
  count: 2,
  attendedCount: 2,
  revenueCents: 40000,
  lastAttended: '2026-11-20',
  scheduledCount: 0,
  scheduledCents: 0,
  nextAppointment: '',
  noShows: 0,
  truncated: false,
}

const signed = (at: string) => `assinado por Paula Lima, CRP 06/12345, em ${at}`

const entry = (over: Record<string, unknown>) => ({
  id: 'v1',
  entryId: 'e1',
  version: 1,
  kind: 'prontuario',
  template: 'evolucao',
  sessionDate: '2026-11-10',
  body: 'Primeira linha\nSegunda linha',
  authorName: 'Paula Lima',
  authorCouncil: 'CRP 06/12345',
  createdAt: '2026-11-10T13:02:00Z',
  signature: signed('10/11/2026 10:02'),
  ...over,
})

const record = (entries: unknown[][]) => ({ id: 'r1', client: { name: 'Carla Souza', phone: '', email: '' }, clientCopy: false, createdAt: '2026-11-10T13:02:00Z', entries, timeZone: 'America/Sao_Paulo' })

const templates = {
  templates: [
    { template: 'anamnese', body: 'Demanda:\n' },
    { template: 'evolucao', body: 'Temas trabalhados:\n' },
    { template: 'encerramento', body: 'Motivo do encerramento:\n' },
  ],
}

function serve(opts: { record?: unknown; as?: typeof session; recordError?: { status: number; body: unknown } } = {}) {
  let current = opts.record ?? null
  return stubFetch((c: FetchCall) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: opts.as ?? professional }
    if (c.url.startsWith('/api/clients/history')) return { status: 200, body: history }
    if (c.url.startsWith('/api/records?')) return opts.recordError ?? { status: 200, body: { record: current } }
    if (c.url === '/api/record-templates') return { status: 200, body: templates, delayMs: 300 }
    if (c.url === '/api/records/entries' && c.method === 'POST') {
      const b = c.body as { body: string; kind: string; template: string; sessionDate: string }
      current = record([[entry({ id: 'v9', entryId: 'e9', body: b.body, kind: b.kind, template: b.template, sessionDate: b.sessionDate })]])
      return { status: 201, body: { record: current }, delayMs: 50 }
    }
    if (c.url === '/api/records/entries/e1/versions' && c.method === 'POST') {
      const b = c.body as { body: string; reason: string }
      current = record([[entry({ id: 'v2', version: 2, body: b.body, reason: b.reason, signature: signed('12/11/2026 14:02') }), entry({})]])
      return { status: 201, body: { record: current } }
    }
    if (c.url === '/api/records/r1/log')
      return { status: 200, body: { timeZone: 'America/Manaus', log: [{ at: '2026-11-12T17:02:00Z', who: 'Paula Lima', action: 'correct', entryId: 'e1' }] } }
    return undefined
  })
}

it('writes a new entry from the template with the right body, and says it was saved only after the 201', async () => {
  const calls = serve()
  renderRoutes(routes, `/clients/${ref}/prontuario?appointment=${ref}`)
  expect(await screen.findByRole('heading', { name: 'Prontuário de Carla Souza' }, { timeout: 10_000 })).toBeInTheDocument()
  expect(screen.getByText('Nenhuma anotação ainda.')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: /Voltar para o cliente/ })).toHaveAttribute('href', `/clients/${ref}`)
  // Opened from the appointment: its date.
  expect(screen.getByLabelText('Data do atendimento')).toHaveValue('2026-11-20')
  // Until the templates arrive, a choice would fill nothing: it waits for them.
  expect(screen.getByLabelText('Modelo')).toBeDisabled()
  await userEvent.click(screen.getByLabelText('Registro sigiloso — só você lê'))
  await waitFor(() => expect(screen.getByLabelText('Modelo')).toBeEnabled())
  await userEvent.selectOptions(screen.getByLabelText('Modelo'), 'evolucao')
  const body = screen.getByLabelText('Anotação')
  expect(body).toHaveValue('Temas trabalhados:\n')
  // Still the template's text: another template replaces it.
  await userEvent.selectOptions(screen.getByLabelText('Modelo'), 'anamnese')
  expect(body).toHaveValue('Demanda:\n')
  await userEvent.type(body, 'ansiedade')
  // Written into: a template no longer replaces it.
  await userEvent.selectOptions(screen.getByLabelText('Modelo'), 'encerramento')
  expect(body).toHaveValue('Demanda:\nansiedade')
  await userEvent.click(screen.getByRole('button', { name: 'Assinar e salvar' }))
  expect(await screen.findByRole('button', { name: 'Salvando...' })).toBeDisabled()
  expect(screen.queryByText('Anotação salva')).not.toBeInTheDocument()
  expect(await screen.findByText('Anotação salva')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/entries')?.body).toEqual({
    client: ref,
    appointmentId: ref,
    kind: 'sigiloso',
    template: 'encerramento',
    sessionDate: '2026-11-20',
    body: 'Demanda:\nansiedade',
  })
  expect(await screen.findByText('Sigiloso')).toBeInTheDocument()
  // The next entry starts again from the chosen template.
  expect(body).toHaveValue('Motivo do encerramento:\n')
})

it('sends no appointment when the date was changed, and refuses an empty text', async () => {
  const calls = serve()
  renderRoutes(routes, `/clients/${ref}/prontuario?appointment=${ref}`)
  const date = await screen.findByLabelText('Data do atendimento', {}, { timeout: 10_000 })
  await userEvent.click(screen.getByRole('button', { name: 'Assinar e salvar' }))
  expect(await screen.findByText('Escreva a anotação.')).toBeInTheDocument()
  expect(calls.some((c) => c.url === '/api/records/entries')).toBe(false)
  await userEvent.clear(date)
  await userEvent.type(date, '2026-11-18')
  await userEvent.type(screen.getByLabelText('Anotação'), 'Sessão remarcada')
  await userEvent.click(screen.getByRole('button', { name: 'Assinar e salvar' }))
  expect(await screen.findByText('Anotação salva')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/entries')?.body).toEqual({
    client: ref,
    kind: 'prontuario',
    template: 'livre',
    sessionDate: '2026-11-18',
    body: 'Sessão remarcada',
  })
})

it('shows each entry signed with its line breaks, corrects only with a reason, and keeps the earlier version signed', async () => {
  const calls = serve({ record: record([[entry({})]]) })
  renderRoutes(routes, `/clients/${ref}/prontuario`)
  const text = await screen.findByText(/Primeira linha/, {}, { timeout: 10_000 })
  expect(text.textContent).toBe('Primeira linha\nSegunda linha')
  expect(text).toHaveClass('whitespace-pre-wrap')
  expect(screen.getByText('Prontuário', { selector: 'span' })).toBeInTheDocument()
  expect(screen.getByText('Evolução', { selector: 'span' })).toBeInTheDocument()
  expect(screen.getByText('Atendimento em 10/11/2026')).toBeInTheDocument()
  expect(screen.getByText(signed('10/11/2026 10:02'))).toBeInTheDocument()
  expect(screen.queryByText(/Versões anteriores/)).not.toBeInTheDocument()

  await userEvent.click(screen.getByRole('button', { name: 'Corrigir' }))
  const fixed = screen.getByLabelText('Anotação corrigida')
  expect(fixed).toHaveValue('Primeira linha\nSegunda linha')
  await userEvent.type(fixed, '\nTerceira linha')
  await userEvent.click(screen.getByRole('button', { name: 'Assinar correção' }))
  expect(await screen.findByText('Diga o motivo da correção.')).toBeInTheDocument()
  expect(calls.some((c) => c.url.endsWith('/versions'))).toBe(false)
  await userEvent.type(screen.getByLabelText('Motivo da correção'), 'Faltou o encaminhamento')
  await userEvent.click(screen.getByRole('button', { name: 'Assinar correção' }))
  await waitFor(() => expect(calls.find((c) => c.url.endsWith('/versions'))?.body).toEqual({ body: 'Primeira linha\nSegunda linha\nTerceira linha', reason: 'Faltou o encaminhamento' }))
  expect(await screen.findByText(signed('12/11/2026 14:02'))).toBeInTheDocument()
  expect(screen.getByText('Motivo: Faltou o encaminhamento')).toBeInTheDocument()
  const older = screen.getByText('Versões anteriores (1)').closest('details') as HTMLElement
  expect(within(older).getByText(signed('10/11/2026 10:02'))).toBeInTheDocument()
  expect(within(older).getByText(/Primeira linha/).textContent).toBe('Primeira linha\nSegunda linha')
})

it('reads the access log only when it is opened', async () => {
  const calls = serve({ record: record([[entry({})]]) })
  renderRoutes(routes, `/clients/${ref}/prontuario`)
  const summary = await screen.findByText('Registro de acessos', { selector: 'summary' }, { timeout: 10_000 })
  expect(calls.some((c) => c.url.endsWith('/log'))).toBe(false)
  await userEvent.click(summary)
  // In the practice's zone (Manaus, UTC−4), whatever the browser's.
  expect(await screen.findByText('12/11/2026 13:02 — Paula Lima — corrigiu')).toBeInTheDocument()
})

it("tells an owner who has not said which professional they are the server's message, with the way to Profissionais, and shows no form", async () => {
  const message = 'Para escrever prontuários, indique em Profissionais qual profissional é você.'
  serve({ as: session, recordError: { status: 403, body: { error: { code: 'not_a_professional', message } } } })
  renderRoutes(routes, `/clients/${ref}/prontuario`)
  expect(await screen.findByText(message, {}, { timeout: 10_000 })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Ir para Profissionais' })).toHaveAttribute('href', '/professionals')
  expect(screen.queryByRole('form', { name: 'Nova anotação' })).not.toBeInTheDocument()
})
