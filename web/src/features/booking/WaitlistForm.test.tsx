import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, stubFetch } from '@/test/render'
import WaitlistForm from './WaitlistForm'

afterEach(() => vi.unstubAllGlobals())

const joined = (notice: 'whatsapp' | 'email' | 'push' | 'owner') => ({
  ownerName: 'Helena Prado', username: 'helena', serviceName: 'Sessão', professionalName: 'Helena', firstDate: '2026-11-24', lastDate: '2026-11-24',
  partOfDay: 'qualquer', status: 'waiting', token: 'tok', notice,
})

function show(notice: 'whatsapp' | 'email' | 'push' | 'owner') {
  const calls = stubFetch((c) => (c.url === '/api/public/profiles/helena/waitlist' ? { status: 201, body: joined(notice) } : undefined))
  const form = () => (
    <WaitlistForm username="helena" serviceId="s1" professionalId="p1" firstDate="2026-11-24" today="2026-11-23" typed={{ name: 'Paula Souza', email: '', phone: '(11) 97444-2812' }} />
  )
  renderRoutes([{ path: '/', Component: form }], '/')
  return calls
}

// Issue 39, point 12: the form keeps what the client typed on the booking
// page, starts at the chosen (full) date, says a phone or an e-mail is
// needed, and the confirmation says how a freed time will really reach them.
it('keeps the typed name and phone, starts at the chosen date and asks for a phone or an e-mail', async () => {
  show('owner')
  expect(await screen.findByLabelText('Nome completo *')).toHaveValue('Paula Souza')
  expect(screen.getByLabelText('Telefone')).toHaveValue('(11) 97444-2812')
  expect(screen.getByLabelText('A partir de *')).toHaveValue('2026-11-24')
  expect(screen.getByRole('group', { name: 'Telefone ou e-mail *' })).toBeInTheDocument()
})

it.each([
  ['owner', 'Se um horário vagar, Helena Prado entra em contato pelo telefone informado, por ordem de chegada.'],
  ['whatsapp', 'Se um horário vagar, avisamos você por WhatsApp, por ordem de chegada.'],
  ['email', 'Se um horário vagar, avisamos você por e-mail, por ordem de chegada.'],
  // Issue 41: a client with only a phone whose browser is subscribed hears of it by push, not from the practice.
  ['push', 'Se um horário vagar, avisamos você por notificação no celular, por ordem de chegada.'],
] as const)('a %s notice reads as what will happen', async (notice, text) => {
  const calls = show(notice)
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Entrar na lista de espera' }))
  expect(await screen.findByText('Você está na lista de espera')).toBeInTheDocument()
  expect(screen.getByText(text, { exact: false })).toBeInTheDocument()
  expect(calls.find((c) => c.url.endsWith('/waitlist'))?.body).toMatchObject({ clientName: 'Paula Souza', clientPhone: '(11) 97444-2812', firstDate: '2026-11-24' })
})

// Issue 40 §5: the form is on the schema-form helper (lib/form.ts) now; its
// checks, their pt-BR messages and the server's refusal read as before.
it('says what is missing beside each field, sends nothing until it is fixed, and shows the server refusal', async () => {
  const calls = stubFetch((c) =>
    c.url === '/api/public/profiles/helena/waitlist' ? { status: 422, body: { error: { code: 'invalid_contact', message: 'Telefone inválido. Use DDD + número.' } } } : undefined,
  )
  const form = () => <WaitlistForm username="helena" serviceId="s1" professionalId="p1" firstDate="" today="2026-11-23" />
  renderRoutes([{ path: '/', Component: form }], '/')
  const user = userEvent.setup()
  const send = await screen.findByRole('button', { name: 'Entrar na lista de espera' })
  expect(screen.getByLabelText('A partir de *')).toHaveValue('2026-11-23')
  await user.clear(screen.getByLabelText('Até'))
  await user.type(screen.getByLabelText('Até'), '2026-12-07')
  await user.click(send)
  expect(await screen.findByText('Informe seu nome completo.')).toBeInTheDocument()
  expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Informe um telefone ou e-mail para contato.')
  expect(screen.getByLabelText('Até')).toHaveAccessibleDescription('Até 14 dias seguidos. Escolha uma data final até 14 dias depois da primeira.')
  expect(calls.filter((c) => c.url.endsWith('/waitlist'))).toHaveLength(0)

  await user.type(screen.getByLabelText('Nome completo *'), '  Paula Souza ')
  await user.type(screen.getByLabelText('Telefone'), '1234')
  await user.clear(screen.getByLabelText('Até'))
  await user.type(screen.getByLabelText('Até'), '2026-12-06')
  await user.click(screen.getByRole('radio', { name: 'Tarde (12h às 18h)' }))
  await user.click(send)
  expect(await screen.findByRole('alert')).toHaveTextContent('Telefone inválido. Use DDD + número.')
  expect(screen.queryByText('Informe seu nome completo.')).not.toBeInTheDocument()
  expect(calls.find((c) => c.url.endsWith('/waitlist'))?.body).toEqual({
    serviceId: 's1', professionalId: 'p1', firstDate: '2026-11-23', lastDate: '2026-12-06', partOfDay: 'tarde', clientName: 'Paula Souza', clientEmail: '', clientPhone: '1234',
  })
})
