import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch, type FetchCall } from '@/test/render'
import { routes } from '@/app/router'
import { todayLocal } from '@/lib/dates'

// Issue 43 §1–2 on the record page: documents issued, shared summaries, co-signature and the client's copy.

afterEach(() => vi.unstubAllGlobals())

const professional = { ...session, user: { ...session.user, role: 'professional' } }
const ref = '6f1c2a3b-0000-4000-8000-000000000001'

const history = {
  client: { identifier: 'x', name: 'Carla Souza', email: '', phone: '11988887777' },
  appointments: [],
  deposits: [],
  count: 0,
  attendedCount: 0,
  revenueCents: 0,
  lastAttended: '',
  scheduledCount: 0,
  scheduledCents: 0,
  nextAppointment: '',
  noShows: 0,
  truncated: false,
}

const pro = (id: string, name: string, active = true) => ({
  id,
  name,
  specialization: 'Psicóloga',
  email: null,
  photoUrl: '',
  active,
  council: 'CRP',
  councilUf: 'SP',
  councilNumber: '06/1',
  councilLabel: 'CRP 06/1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
})
const paula = pro('p1', 'Paula Lima')
const rita = pro('p2', 'Rita Alves')
const old = pro('p3', 'Bia Antiga', false)

const signed = 'assinado por Paula Lima, CRP 06/12345, em 10/11/2026 10:02'
const entry = (over: Record<string, unknown> = {}) => ({
  id: 'v1',
  entryId: 'e1',
  version: 1,
  kind: 'prontuario',
  template: 'evolucao',
  sessionDate: '2026-11-10',
  body: 'Ansiedade no trabalho.',
  authorName: 'Paula Lima',
  authorCouncil: 'CRP 06/12345',
  createdAt: '2026-11-10T13:02:00Z',
  signature: signed,
  ...over,
})

type Rec = { id: string; clientCopy: boolean; entries: unknown[][]; documents: unknown[]; shares: { reader: string; summary: string; updatedAt: string }[] }
const record = (over: Partial<Rec> = {}): Rec & Record<string, unknown> => ({
  id: 'r1',
  client: { name: 'Carla Souza', phone: '', email: '' },
  clientCopy: false,
  createdAt: '2026-11-10T13:02:00Z',
  entries: [[entry()]],
  documents: [],
  shares: [],
  timeZone: 'America/Sao_Paulo',
  ...over,
})

/**
 * The server as the record page meets it. `team` is the practice's professionals and `self` the author among them:
 * GET /api/records/team answers the author's active colleagues, by name.
 */
function serve(opts: { as?: typeof session; record?: ReturnType<typeof record>; team?: unknown[]; self?: string; selfDelayMs?: number; fail?: string } = {}) {
  let current = opts.record ?? record()
  return stubFetch((c: FetchCall) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: opts.as ?? professional }
    if (c.url.startsWith('/api/clients/history')) return { status: 200, body: history }
    if (c.url.startsWith('/api/records?')) return { status: 200, body: { record: current } }
    if (c.url === '/api/record-templates') return { status: 200, body: { templates: [] } }
    if (c.url === '/api/records/team') {
      const self = opts.self ?? 'p1'
      const colleagues = ((opts.team ?? [paula]) as { id: string; name: string; active: boolean }[]).filter((p) => p.active && p.id !== self).map(({ id, name }) => ({ id, name }))
      return { status: 200, body: { self, colleagues }, delayMs: opts.selfDelayMs }
    }
    if (opts.fail && c.url === opts.fail) return { status: 400, body: { error: { code: 'validation_failed', message: 'Recusado pelo servidor.' } } }
    if (c.url === '/api/records/r1/documents' && c.method === 'POST') {
      const b = c.body as { issuedOn: string; purpose: string; recipient: string }
      current = { ...current, documents: [{ id: 'd2', ...b, signature: 'assinado por Paula Lima, CRP 06/12345, em 20/11/2026 09:00' }, ...current.documents] }
      return { status: 201, body: { record: current }, delayMs: 50 }
    }
    if (c.url === '/api/records/r1/share' && c.method === 'PUT') {
      const b = c.body as { reader: string; summary: string }
      const others = current.shares.filter((s) => s.reader !== b.reader)
      current = { ...current, shares: b.summary === '' ? others : [...others, { reader: b.reader, summary: b.summary, updatedAt: '2026-11-20T12:00:00Z' }] }
      return { status: 200, body: { record: current }, delayMs: 50 }
    }
    if (c.url === '/api/records/versions/v1/cosign' && c.method === 'PUT') {
      const b = c.body as { supervisorId: string }
      current = { ...current, entries: [[entry({ cosign: { supervisorId: b.supervisorId, signed: false } })]] }
      return { status: 200, body: { record: current }, delayMs: 50 }
    }
    if (c.url === '/api/records/r1/log')
      return {
        status: 200,
        body: {
          timeZone: 'America/Sao_Paulo',
          log: [
            { at: '2026-11-20T12:00:00Z', who: 'Paula Lima', action: 'document' },
            { at: '2026-11-20T12:01:00Z', who: 'Paula Lima', action: 'cosign-request' },
            { at: '2026-11-20T12:02:00Z', who: 'Rita Alves', action: 'cosign' },
            { at: '2026-11-20T12:03:00Z', who: 'Dona Rita (titular)', action: 'read-shared' },
            { at: '2026-11-20T12:04:00Z', who: 'Paula Lima', action: 'unshare' },
            { at: '2026-11-20T12:05:00Z', who: 'Cliente (link privado)', action: 'client-read' },
          ],
        },
      }
    if (c.url === '/api/records/r1/client-copy' && c.method === 'PUT') {
      const b = c.body as { allow: boolean }
      current = { ...current, clientCopy: b.allow }
      return { status: 200, body: { clientCopy: b.allow }, delayMs: 50 }
    }
    return undefined
  })
}

const open = async () => {
  renderRoutes(routes, `/clients/${ref}/prontuario`)
  expect(await screen.findByRole('heading', { name: 'Prontuário de Carla Souza' }, { timeout: 10_000 })).toBeInTheDocument()
}

// Before any test registers one: sonner's toasts outlive a test.
it("shows the server's refusal of a document in the form, and no success", async () => {
  serve({ fail: '/api/records/r1/documents' })
  await open()
  const form = await screen.findByRole('form', { name: 'Registrar documento' })
  await userEvent.type(within(form).getByLabelText('Finalidade'), 'Atestado')
  await userEvent.type(within(form).getByLabelText('Destinatário'), 'Cliente')
  await userEvent.click(within(form).getByRole('button', { name: 'Registrar' }))
  expect(await within(form).findByRole('alert')).toHaveTextContent('Recusado pelo servidor.')
  expect(screen.queryByText('Documento registrado')).not.toBeInTheDocument()
})

it('lists the documents issued with their dates and signatures, in the order of the sections under the history', async () => {
  serve({
    record: record({
      documents: [{ id: 'd1', issuedOn: '2026-11-12', purpose: 'Declaração de comparecimento', recipient: 'Empresa X', signature: 'assinado por Paula Lima, CRP 06/12345, em 12/11/2026 15:00' }],
    }),
  })
  await open()
  const list = await screen.findByRole('list', { name: 'Documentos emitidos' })
  expect(within(list).getByText('12/11/2026')).toBeInTheDocument()
  expect(within(list).getByText('Declaração de comparecimento').closest('p')).toHaveTextContent('Finalidade: Declaração de comparecimento')
  expect(within(list).getByText('Empresa X').closest('p')).toHaveTextContent('Destinatário: Empresa X')
  expect(within(list).getByText('assinado por Paula Lima, CRP 06/12345, em 12/11/2026 15:00')).toBeInTheDocument()
  expect(screen.getByText(/O registro não pode ser editado nem apagado/)).toBeInTheDocument()
  const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
  expect(headings.slice(headings.indexOf('Anotações'))).toEqual(['Anotações', 'Documentos emitidos', 'Anexos', 'Resumo compartilhado', 'Cópia para o cliente'])
})

it('registers a document only with its three fields, and says so only after the 201', async () => {
  const calls = serve()
  await open()
  const form = await screen.findByRole('form', { name: 'Registrar documento' })
  expect(within(form).getByLabelText('Data de emissão')).toHaveValue(todayLocal())
  await userEvent.click(within(form).getByRole('button', { name: 'Registrar' }))
  expect(within(form).getByText('Informe a finalidade.')).toBeInTheDocument()
  expect(within(form).getByText('Informe o destinatário.')).toBeInTheDocument()
  expect(calls.some((c) => c.url.endsWith('/documents'))).toBe(false)
  await userEvent.clear(within(form).getByLabelText('Data de emissão'))
  await userEvent.type(within(form).getByLabelText('Data de emissão'), '2026-11-20')
  await userEvent.type(within(form).getByLabelText('Finalidade'), '  Relatório para a escola ')
  await userEvent.type(within(form).getByLabelText('Destinatário'), 'Escola Y')
  await userEvent.click(within(form).getByRole('button', { name: 'Registrar' }))
  expect(await within(form).findByRole('button', { name: 'Registrando...' })).toBeDisabled()
  expect(screen.queryByText('Documento registrado')).not.toBeInTheDocument()
  expect(await screen.findByText('Documento registrado')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/r1/documents')?.body).toEqual({ issuedOn: '2026-11-20', purpose: 'Relatório para a escola', recipient: 'Escola Y' })
  const list = screen.getByRole('list', { name: 'Documentos emitidos' })
  expect(within(list).getByText('20/11/2026')).toBeInTheDocument()
  expect(within(list).getByText('Relatório para a escola')).toBeInTheDocument()
  expect(within(form).getByLabelText('Finalidade')).toHaveValue('')
})

it('a professional without a colleague shares a summary with the owner only, then stops sharing', async () => {
  const calls = serve()
  await open()
  const form = await screen.findByRole('form', { name: 'Compartilhar resumo' })
  expect(screen.getByText('Só este resumo é mostrado; as anotações continuam só suas.')).toBeInTheDocument()
  const reader = within(form).getByLabelText('Compartilhar com')
  expect(within(reader).getAllByRole('option').map((o) => o.textContent)).toEqual(['Titular da agenda'])
  expect(within(form).queryByRole('button', { name: 'Parar de compartilhar' })).not.toBeInTheDocument()
  await userEvent.click(within(form).getByRole('button', { name: 'Compartilhar' }))
  expect(within(form).getByText('Escreva o resumo.')).toBeInTheDocument()
  expect(calls.some((c) => c.url.endsWith('/share'))).toBe(false)
  await userEvent.type(within(form).getByLabelText('Resumo'), 'Em acompanhamento semanal.')
  await userEvent.click(within(form).getByRole('button', { name: 'Compartilhar' }))
  expect(await within(form).findByRole('button', { name: 'Salvando...' })).toBeDisabled()
  expect(screen.queryByText('Resumo compartilhado com Titular da agenda')).not.toBeInTheDocument()
  expect(await screen.findByText('Resumo compartilhado com Titular da agenda')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/r1/share')?.body).toEqual({ reader: 'owner', summary: 'Em acompanhamento semanal.' })
  const shared = screen.getByRole('list', { name: 'Resumos compartilhados' })
  expect(within(shared).getByText('Com Titular da agenda')).toBeInTheDocument()
  expect(within(shared).getByText('Em acompanhamento semanal.')).toBeInTheDocument()
  expect(within(form).getByLabelText('Resumo')).toHaveValue('Em acompanhamento semanal.')

  await userEvent.click(within(form).getByRole('button', { name: 'Parar de compartilhar' }))
  expect(await screen.findByText('Compartilhamento com Titular da agenda encerrado')).toBeInTheDocument()
  expect(calls.filter((c) => c.url === '/api/records/r1/share').at(-1)?.body).toEqual({ reader: 'owner', summary: '' })
  expect(screen.queryByRole('list', { name: 'Resumos compartilhados' })).not.toBeInTheDocument()
  expect(screen.getByText('Nenhum resumo compartilhado.')).toBeInTheDocument()
  expect(within(form).getByLabelText('Resumo')).toHaveValue('')
})

it('the owner who is a professional shares with an active colleague, never with themself nor the owner, and edits what was shared', async () => {
  const calls = serve({ as: session, team: [paula, rita, old], self: 'p1', record: record({ shares: [{ reader: 'p2', summary: 'Resumo antigo', updatedAt: '2026-11-15T12:00:00Z' }] }) })
  await open()
  const form = await screen.findByRole('form', { name: 'Compartilhar resumo' })
  const reader = within(form).getByLabelText('Compartilhar com')
  await waitFor(() => expect(within(reader).getAllByRole('option').map((o) => o.textContent)).toEqual(['Rita Alves']))
  expect(calls.some((c) => c.url === '/api/records/team')).toBe(true)
  expect(screen.getByText('Com Rita Alves')).toBeInTheDocument()
  const text = within(form).getByLabelText('Resumo')
  expect(text).toHaveValue('Resumo antigo')
  await userEvent.clear(text)
  await userEvent.type(text, 'Resumo novo')
  await userEvent.click(within(form).getByRole('button', { name: 'Compartilhar' }))
  await waitFor(() => expect(calls.find((c) => c.url === '/api/records/r1/share')?.body).toEqual({ reader: 'p2', summary: 'Resumo novo' }))
  expect(await screen.findByText('Resumo novo', { selector: 'li p' })).toBeInTheDocument()
})

it('a professional signed in as themself never calls the owner-only routes, and without a colleague has no co-signature to ask', async () => {
  const calls = serve()
  await open()
  await screen.findByRole('form', { name: 'Compartilhar resumo' })
  await waitFor(() => expect(calls.some((c) => c.url === '/api/records/team')).toBe(true))
  expect(calls.some((c) => c.url === '/api/records/self' || c.url === '/api/professionals')).toBe(false)
  expect(screen.queryByRole('button', { name: 'Pedir coassinatura' })).not.toBeInTheDocument()
})

it('a professional signed in as themself asks a colleague of the team to co-sign, named by the team route', async () => {
  const calls = serve({ team: [paula, rita], self: 'p1' })
  await open()
  await userEvent.click(await screen.findByRole('button', { name: 'Pedir coassinatura' }))
  const supervisor = within(screen.getByRole('form', { name: 'Pedir coassinatura' })).getByLabelText('Supervisor(a)')
  expect(within(supervisor).getAllByRole('option').map((o) => o.textContent)).toEqual(['Rita Alves'])
  await userEvent.click(within(screen.getByRole('form', { name: 'Pedir coassinatura' })).getByRole('button', { name: 'Pedir' }))
  expect(await screen.findByText('Aguardando coassinatura de Rita Alves')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/versions/v1/cosign')?.body).toEqual({ supervisorId: 'p2' })
})

it('asks a colleague to co-sign the latest version, then shows it awaited', async () => {
  const calls = serve({ as: session, team: [paula, rita], self: 'p1' })
  await open()
  await userEvent.click(await screen.findByRole('button', { name: 'Pedir coassinatura' }))
  const form = screen.getByRole('form', { name: 'Pedir coassinatura' })
  const supervisor = within(form).getByLabelText('Supervisor(a)')
  expect(within(supervisor).getAllByRole('option').map((o) => o.textContent)).toEqual(['Rita Alves'])
  await userEvent.click(within(form).getByRole('button', { name: 'Pedir' }))
  expect(await within(form).findByRole('button', { name: 'Pedindo...' })).toBeDisabled()
  expect(screen.queryByText('Aguardando coassinatura de Rita Alves')).not.toBeInTheDocument()
  expect(await screen.findByText('Aguardando coassinatura de Rita Alves')).toBeInTheDocument()
  expect(screen.getAllByText('Coassinatura pedida')[0]).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/versions/v1/cosign')?.body).toEqual({ supervisorId: 'p2' })
  expect(screen.queryByRole('button', { name: 'Pedir coassinatura' })).not.toBeInTheDocument()
})

it("shows the supervisor's co-signature under the signature line once signed", async () => {
  const cosigned = 'coassinado por Rita Alves, CRP 06/2, em 21/11/2026 08:00'
  serve({ as: session, team: [paula, rita], self: 'p1', record: record({ entries: [[entry({ cosign: { supervisorId: 'p2', signed: true, signature: cosigned } })]] }) })
  await open()
  const line = await screen.findByText(cosigned)
  expect(line.previousElementSibling).toHaveTextContent(signed)
  expect(screen.queryByText(/Aguardando coassinatura/)).not.toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Pedir coassinatura' })).not.toBeInTheDocument()
})

it("turns the client's copy on only as the server answers, and links the printable copy", async () => {
  const calls = serve()
  await open()
  const toggle = await screen.findByRole('switch', { name: 'O cliente pode ver o prontuário pelo link dele' })
  expect(toggle).not.toBeChecked()
  expect(screen.getByText('Só a parte de prontuário, nunca os registros sigilosos.')).toBeInTheDocument()
  await userEvent.click(toggle)
  expect(toggle).toBeDisabled()
  expect(await screen.findByText('O cliente já pode ver o prontuário pelo link dele')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/r1/client-copy')?.body).toEqual({ allow: true })
  await waitFor(() => expect(toggle).toBeChecked())
  expect(toggle).toBeEnabled()
  await userEvent.click(toggle)
  expect(await screen.findByText('O cliente não vê mais o prontuário pelo link')).toBeInTheDocument()
  expect(calls.filter((c) => c.url === '/api/records/r1/client-copy').at(-1)?.body).toEqual({ allow: false })
  await waitFor(() => expect(toggle).not.toBeChecked())
  expect(screen.getByRole('link', { name: 'Cópia para o cliente' })).toHaveAttribute('href', `/clients/${ref}/prontuario/copia?record=r1`)
})

it('shows none of the sections before the first entry', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: professional }
    if (c.url.startsWith('/api/clients/history')) return { status: 200, body: history }
    if (c.url.startsWith('/api/records?')) return { status: 200, body: { record: null } }
    if (c.url === '/api/record-templates') return { status: 200, body: { templates: [] } }
    if (c.url === '/api/professionals') return { status: 200, body: [paula] }
    return undefined
  })
  await open()
  expect(await screen.findByText('Nenhuma anotação ainda.')).toBeInTheDocument()
  expect(screen.queryByRole('form', { name: 'Registrar documento' })).not.toBeInTheDocument()
  expect(screen.queryByRole('switch')).not.toBeInTheDocument()
  expect(calls.some((c) => c.url.includes('/share') || c.url.includes('/documents'))).toBe(false)
})

it('names in the access log what these sections do', async () => {
  serve()
  await open()
  await userEvent.click(await screen.findByText('Registro de acessos', { selector: 'summary' }))
  const log = await screen.findByRole('list', { name: 'Registro de acessos' })
  await waitFor(() => expect(within(log).getAllByRole('listitem')).toHaveLength(6))
  expect(within(log).getAllByRole('listitem').map((li) => li.textContent?.split(' — ').slice(1).join(' — '))).toEqual([
    'Paula Lima — registrou um documento',
    'Paula Lima — pediu coassinatura',
    'Rita Alves — coassinou',
    'Dona Rita (titular) — leu o resumo compartilhado',
    'Paula Lima — parou de compartilhar',
    'Cliente (link privado) — leu a cópia do prontuário',
  ])
})

it('offers the owner no reader and no supervisor until it knows which professional the owner is', async () => {
  serve({ as: session, team: [paula, rita], self: 'p1', selfDelayMs: 400 })
  await open()
  await screen.findByText('Nenhum resumo compartilhado.')
  // The team is read, the owner's professional not yet: neither a form offering Paula to herself nor 'no one to share with'.
  expect(screen.queryByRole('form', { name: 'Compartilhar resumo' })).not.toBeInTheDocument()
  expect(screen.queryByText(/não tem outro profissional/)).not.toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Pedir coassinatura' })).not.toBeInTheDocument()
  const reader = await screen.findByLabelText('Compartilhar com', {}, { timeout: 3000 })
  expect(within(reader).getAllByRole('option').map((o) => o.textContent)).toEqual(['Rita Alves'])
  expect(screen.getByRole('button', { name: 'Pedir coassinatura' })).toBeInTheDocument()
})

it('tells an owner whose team has no other professional that there is no one to share with', async () => {
  serve({ as: session, team: [paula], self: 'p1' })
  await open()
  expect(await screen.findByText('A equipe não tem outro profissional com quem compartilhar.')).toBeInTheDocument()
  expect(screen.queryByRole('form', { name: 'Compartilhar resumo' })).not.toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Pedir coassinatura' })).not.toBeInTheDocument()
})
