import { expect, test } from '@playwright/test'
import { agendaGrid, apiOwner, gridAppointment, gridFree, H, inSaoPaulo, login, uniqueEmail, waitForMail } from './helpers'

test('the owner writes a phone booking from a DISPONÍVEL row, the public page stops offering it, and a time outside the hours needs a yes', async ({ page, request }) => {
  const username = `telefone${Date.now()}`
  const email = uniqueEmail('telefone')
  const s = await apiOwner(request, { name: 'Dona Rita', business: 'Clínica Rita', area: 'Psicologia', username, email, professional: 'Rita', priceCents: 15000 })
  const date = inSaoPaulo(Date.now() + 864e5)
  const times = async () =>
    (await (await request.get(`/api/public/profiles/${username}/times?date=${date}&professional=${s.professional}&service=${s.service}`, { headers: H })).json()).times as string[]
  // A client who booked online before, to be found by the type-ahead.
  expect(
    (
      await request.post(`/api/public/profiles/${username}/bookings`, {
        headers: { ...H, 'X-Forwarded-For': '10.6.6.1' },
        data: { professionalId: s.professional, serviceId: s.service, date, time: '08:00', clientName: 'Paula Souza', clientPhone: '(11) 97777-1234', clientEmail: 'paula@example.com' },
      })
    ).status(),
  ).toBe(201)
  expect(await times()).toContain('10:00')

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Próximo' }).click()

  // A click on the free 10:00 row opens the form with the date, time and professional.
  await gridFree(page, '10:00').click()
  const dialog = page.getByRole('dialog', { name: 'Novo agendamento' })
  await expect(dialog.getByLabel('Data *')).toHaveValue(date)
  await expect(dialog.getByLabel('Horário *')).toHaveValue('10:00')
  await expect(dialog.getByLabel('Profissional *')).toHaveValue(s.professional)
  // Nothing filled: the hints say what is missing, beside each field.
  await dialog.getByRole('button', { name: 'Agendar', exact: true }).click()
  await expect(dialog.getByText('Informe o nome do cliente.')).toBeVisible()
  await expect(dialog.getByText('Informe o telefone ou o e-mail do cliente.')).toBeVisible()
  await expect(dialog.getByText('Escolha o serviço.')).toBeVisible()
  // The type-ahead finds Paula by part of her phone and fills her contacts.
  await dialog.getByLabel('Buscar cliente').fill('7777-12')
  await dialog.getByRole('list', { name: 'Clientes encontrados' }).getByRole('button', { name: /Paula Souza/ }).click()
  await expect(dialog.getByLabel('Nome do cliente *')).toHaveValue('Paula Souza')
  await expect(dialog.getByLabel('E-mail', { exact: true })).toHaveValue('paula@example.com')
  await dialog.getByLabel('Serviço *').selectOption({ label: 'Sessão (60 min)' })
  await dialog.getByLabel('Observações').fill('Marcou pelo WhatsApp')
  await dialog.getByLabel('Enviar a confirmação por e-mail ao cliente').check()
  await dialog.getByRole('button', { name: 'Agendar', exact: true }).click()
  await expect(page.getByText('Agendamento criado').first()).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(gridAppointment(page, '10:00', 'Paula Souza')).toBeVisible()
  await expect(gridFree(page, '10:00')).toHaveCount(0)
  // The public page no longer offers that time, and Paula got the invite.
  expect(await times()).not.toContain('10:00')
  const mail = await waitForMail('paula@example.com', 'Agendamento confirmado')
  expect(mail).toContain('agendamento.ics')

  // Over a taken time: the server's own words, nothing lost.
  await page.getByRole('button', { name: 'Novo agendamento', exact: true }).click()
  await dialog.getByLabel('Nome do cliente *').fill('João Lima')
  await dialog.getByLabel('Telefone', { exact: true }).fill('11 96666-5555')
  await dialog.getByLabel('Serviço *').selectOption({ label: 'Sessão (60 min)' })
  await dialog.getByLabel('Data *').fill(date)
  await dialog.getByLabel('Horário *').fill('10:30')
  await dialog.getByRole('button', { name: 'Agendar', exact: true }).click()
  await expect(dialog.getByRole('alert')).toContainText('Este profissional já possui agendamento neste horário.')
  await expect(dialog.getByLabel('Nome do cliente *')).toHaveValue('João Lima')
  // After closing time: only with the owner's explicit yes.
  await dialog.getByLabel('Horário *').fill('21:00')
  await dialog.getByRole('button', { name: 'Agendar', exact: true }).click()
  await expect(dialog.getByText('Fora do horário de atendimento')).toBeVisible()
  await dialog.getByRole('button', { name: 'Agendar mesmo assim' }).click()
  await expect(dialog).toBeHidden()
  await expect(gridAppointment(page, '21:00', 'João Lima')).toBeVisible()
})

test('the owner blocks an afternoon: the agenda shows it, the public page stops offering it, and removing it gives the time back', async ({ page, request }) => {
  const username = `bloqueio${Date.now()}`
  const email = uniqueEmail('bloqueio')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Clínica Lia', area: 'Nutrição', username, email, professional: 'Lia', priceCents: 9000 })
  const date = inSaoPaulo(Date.now() + 864e5)
  const times = async () =>
    (await (await request.get(`/api/public/profiles/${username}/times?date=${date}&professional=${s.professional}&service=${s.service}`, { headers: H })).json()).times as string[]

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Próximo' }).click()

  await page.getByRole('button', { name: 'Bloquear horário' }).click()
  const dialog = page.getByRole('dialog', { name: 'Bloquear horário' })
  await expect(dialog.getByLabel('Data *')).toHaveValue(date)
  await dialog.getByLabel('Quem fica indisponível').selectOption({ label: 'Lia' })
  await dialog.getByLabel('Início *').fill('16:00')
  await dialog.getByLabel('Fim *').fill('14:00')
  await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()
  await expect(dialog.getByText('O fim deve ser depois do início.')).toBeVisible()
  await dialog.getByLabel('Início *').fill('14:00')
  await dialog.getByLabel('Fim *').fill('16:00')
  await dialog.getByLabel('Motivo (opcional)').fill('Supervisão')
  await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(agendaGrid(page).getByRole('note', { name: /^BLOQUEADO 14:00–16:00 · Supervisão/ })).toBeVisible()
  await expect(gridFree(page, '15:30')).toHaveCount(0)
  await expect(gridFree(page, '16:00')).toBeVisible()
  expect(await times()).not.toContain('14:00')
  expect(await times()).toContain('16:00')

  await agendaGrid(page).getByRole('note', { name: /^BLOQUEADO 14:00/ }).getByRole('button', { name: 'Remover bloqueio' }).click()
  await page.getByRole('alertdialog', { name: 'Remover este bloqueio?' }).getByRole('button', { name: 'Remover bloqueio' }).click()
  await expect(page.getByText('Bloqueio removido').first()).toBeVisible()
  await expect(gridFree(page, '14:00')).toBeVisible()
  expect(await times()).toContain('14:00')
})

test('a block over a booked afternoon lists the clients before saving, on a phone; the choices are a plan: kept stays, cancelled only with the block, told how', async ({ page, request }) => {
  const username = `afetados${Date.now()}`
  const email = uniqueEmail('afetados')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Clínica Lia', area: 'Nutrição', username, email, professional: 'Lia', priceCents: 9000 })
  const date = inSaoPaulo(Date.now() + 864e5)
  const booked = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.6.9.1' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '15:00', clientName: 'Fernanda Vieira', clientPhone: '11988887777' },
  })
  expect(booked.status()).toBe(201)
  const other = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.6.9.2' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '16:00', clientName: 'Rosa Alves', clientPhone: '11966665555' },
  })
  expect(other.status()).toBe(201)
  const rosaID = (await other.json()).id
  const rosaStatus = async () => (await (await request.get(`/api/appointments/${rosaID}`, { headers: s.auth })).json()).status

  await page.setViewportSize({ width: 360, height: 780 })
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Próximo' }).click()
  await page.getByRole('button', { name: 'Bloquear horário' }).click()
  const dialog = page.getByRole('dialog', { name: 'Bloquear horário' })
  await dialog.getByLabel('Início *').fill('13:00')
  await dialog.getByLabel('Fim *').fill('18:00')
  await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()
  const client = dialog.getByRole('listitem', { name: 'Fernanda Vieira' })
  await expect(client).toContainText('15:00')
  await expect(dialog.getByRole('button', { name: 'Bloquear', exact: true })).toBeDisabled()
  // "Cancelar e avisar" then "Voltar": nothing happened to Rosa.
  await dialog.getByRole('listitem', { name: 'Rosa Alves' }).getByRole('button', { name: 'Cancelar e avisar' }).click()
  await dialog.getByRole('button', { name: 'Voltar' }).click()
  expect(await rosaStatus()).toBe('confirmed')
  await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()
  await client.getByRole('button', { name: 'Manter' }).click()
  await dialog.getByRole('listitem', { name: 'Rosa Alves' }).getByRole('button', { name: 'Cancelar e avisar' }).click()
  expect(await rosaStatus()).toBe('confirmed')
  await dialog.getByRole('button', { name: 'Bloquear', exact: true }).click()
  // Rosa has no e-mail: nobody says she was told; her cancellation is ready on WhatsApp.
  const rosa = dialog.getByRole('listitem', { name: 'Rosa Alves' })
  await expect(rosa).toContainText('Não conseguimos avisar automaticamente')
  await expect(rosa.getByRole('link', { name: /Enviar o cancelamento pelo WhatsApp/ })).toHaveAttribute('href', /wa\.me\/5511966665555\?text=.*cancelar/)
  expect(await rosaStatus()).toBe('cancelled')
  await dialog.getByRole('button', { name: 'Concluir' }).click()
  await expect(dialog).toBeHidden()
  await expect(gridAppointment(page, '15:00', 'Fernanda Vieira')).toBeVisible()
  const blocks = await (await request.get(`/api/blocks?from=${date}&to=${date}`, { headers: s.auth })).json()
  expect(blocks[0].kept).toHaveLength(1)
})

test('the owner marks a no-show: the agenda, the client list and the reports count it', async ({ page, request }) => {
  const username = `falta${Date.now()}`
  const email = uniqueEmail('falta')
  const s = await apiOwner(request, { name: 'Dona Eva', business: 'Clínica Eva', area: 'Fisioterapia', username, email, professional: 'Eva', priceCents: 11000 })
  const yesterday = inSaoPaulo(Date.now() - 864e5)
  const created = await request.post('/api/appointments', {
    headers: s.auth,
    data: { professionalId: s.professional, serviceId: s.service, date: yesterday, time: '10:00', clientName: 'Rui Faltoso', clientPhone: '11955554444' },
  })
  expect(created.status()).toBe(201)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Anterior' }).click()
  await gridAppointment(page, '10:00', 'Rui Faltoso').click()
  const dialog = page.getByRole('dialog', { name: 'Detalhes do agendamento' })
  await dialog.getByRole('button', { name: 'Não compareceu' }).click()
  await expect(page.getByText('Marcado como não compareceu.').first()).toBeVisible()
  await expect(dialog.getByText('Não compareceu', { exact: true })).toBeVisible()
  await page.keyboard.press('Escape')

  await page.goto('/clients')
  const row = page.getByRole('row', { name: /Rui Faltoso/ })
  await expect(row.getByRole('cell').nth(5)).toHaveText('1')

  await page.goto('/reports')
  await page.getByRole('tab', { name: 'Agendamentos' }).click()
  await expect(page.getByText('100%').first()).toBeVisible()
  await expect(page.getByText('Faltas (não compareceu)')).toBeVisible()

  // The client's history: every appointment, the no-show, contact actions, and editing across appointments.
  await page.goto('/clients')
  await page.getByRole('link', { name: 'Ver histórico de Rui Faltoso' }).click()
  await expect(page.getByRole('heading', { name: 'Rui Faltoso' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'WhatsApp (11) 95555-4444' })).toHaveAttribute('href', 'https://wa.me/5511955554444')
  const history = page.getByRole('list', { name: 'Agendamentos do cliente' })
  await expect(history.getByRole('listitem')).toHaveCount(1)
  await expect(history).toContainText('Não compareceu')
  await page.getByRole('button', { name: 'Editar dados do cliente' }).click()
  await page.getByLabel('Nome *').fill('Rui Presente')
  await page.getByLabel('Telefone').fill('(11) 95555-1111')
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page.getByText('Dados corrigidos em 1 agendamento.').first()).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Rui Presente' })).toBeVisible()
  await expect(page).toHaveURL(/\/clients\/[0-9a-f-]{36}$/) // the same opaque reference after the phone changed
})

/** The decoded .ics attachment of a raw e-mail. */
function calendarOf(eml: string): string {
  // The part's headers end with a blank line; its base64 body runs to the next boundary.
  const part = eml.slice(eml.indexOf('Content-Type: text/calendar'))
  const body = part.slice(part.search(/\r?\n\r?\n/)).replace(/^\s+/, '')
  return Buffer.from(body.split(/\r?\n--/)[0].replace(/\s+/g, ''), 'base64').toString('utf8')
}

test('the owner reschedules from the details dialog: the agenda moves it and the client’s invite keeps its UID with SEQUENCE 1', async ({ page, request }) => {
  const username = `remarca${Date.now()}`
  const email = uniqueEmail('remarca')
  const s = await apiOwner(request, { name: 'Dona Ivo', business: 'Clínica Ivo', area: 'Psicologia', username, email, professional: 'Ivo', priceCents: 13000 })
  const date = inSaoPaulo(Date.now() + 864e5)
  const client = `remarcada.${Date.now()}@example.com`
  const created = await request.post('/api/appointments', {
    headers: s.auth,
    data: { professionalId: s.professional, serviceId: s.service, date, time: '10:00', clientName: 'Tina Remarcada', clientEmail: client },
  })
  expect(created.status()).toBe(201)
  const id = (await created.json()).id as string

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Próximo' }).click()
  await gridAppointment(page, '10:00', 'Tina Remarcada').click()
  const dialog = page.getByRole('dialog', { name: 'Detalhes do agendamento' })
  await dialog.getByRole('button', { name: 'Remarcar' }).click()
  await dialog.getByLabel('Novo horário').fill('15:00')
  await expect(dialog.getByLabel('Avisar o cliente por e-mail (com o convite atualizado)')).toBeChecked()
  await dialog.getByRole('button', { name: 'Confirmar remarcação' }).click()
  await expect(page.getByText('Agendamento remarcado').first()).toBeVisible()
  await expect(dialog.getByText('15:00', { exact: true })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(gridAppointment(page, '15:00', 'Tina Remarcada')).toBeVisible()
  await expect(gridFree(page, '10:00')).toBeVisible()

  const ics = calendarOf(await waitForMail(client, 'foi remarcado'))
  expect(ics).toContain(`UID:${id}@agendei`)
  expect(ics).toContain('SEQUENCE:1')
  expect(ics).toMatch(/DTSTART;TZID=America\/Sao_Paulo:\d{8}T150000/)
})

test('the owner creates a weekly series of 8 with one taken date skipped, and the agenda marks it recurring', async ({ page, request }) => {
  const username = `serie${Date.now()}`
  const email = uniqueEmail('serie')
  const s = await apiOwner(request, { name: 'Dona Zoé', business: 'Clínica Zoé', area: 'Psicologia', username, email, professional: 'Zoé', priceCents: 15000 })
  const date = inSaoPaulo(Date.now() + 864e5)
  const third = inSaoPaulo(Date.now() + 15 * 864e5)
  // The practice works on national holidays here: the series of 8 weeks from
  // tomorrow must meet only the one taken date, whatever today is (from late
  // November it reached Christmas and New Year).
  for (const year of new Set([date.slice(0, 4), inSaoPaulo(Date.now() + 60 * 864e5).slice(0, 4)])) {
    const { holidays } = await (await request.get(`/api/holidays?year=${year}`, { headers: s.auth })).json()
    for (const h of holidays as { key: string; national: boolean }[]) {
      if (h.national) expect((await request.put(`/api/holidays/${h.key}`, { headers: s.auth, data: { open: true } })).status()).toBe(204)
    }
  }
  expect(
    (
      await request.post(`/api/public/profiles/${username}/bookings`, {
        headers: { ...H, 'X-Forwarded-For': '10.6.7.1' },
        data: { professionalId: s.professional, serviceId: s.service, date: third, time: '11:00', clientName: 'Outra Pessoa', clientPhone: '11944443333' },
      })
    ).status(),
  ).toBe(201)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Próximo' }).click()
  await gridFree(page, '11:00').click()
  const dialog = page.getByRole('dialog', { name: 'Novo agendamento' })
  await dialog.getByLabel('Nome do cliente *').fill('Paciente Semanal')
  await dialog.getByLabel('Telefone', { exact: true }).fill('(11) 93333-2222')
  await dialog.getByLabel('Serviço *').selectOption({ label: 'Sessão (60 min)' })
  await dialog.getByLabel('Repetir').selectOption({ label: 'Toda semana' })
  await dialog.getByLabel('Número de sessões').fill('8')
  await dialog.getByRole('button', { name: 'Agendar', exact: true }).click()
  await expect(dialog.getByText('1 data da série não está livre')).toBeVisible()
  await expect(dialog.getByRole('list', { name: 'Datas ocupadas' })).toContainText('Este profissional já possui agendamento neste horário.')
  await dialog.getByRole('button', { name: 'Pular essas datas e agendar' }).click()
  await expect(page.getByText('Agendamento criado').first()).toBeVisible()
  await expect(gridAppointment(page, '11:00', 'Paciente Semanal')).toHaveAttribute('aria-label', /recorrente/)

  const list = await (await request.get(`/api/appointments?from=${date}&to=${inSaoPaulo(Date.now() + 60 * 864e5)}&q=Semanal`, { headers: s.auth })).json()
  expect(list.appointments).toHaveLength(7)
  expect(new Set(list.appointments.map((a: { seriesId: string }) => a.seriesId)).size).toBe(1)
  expect(list.appointments.map((a: { date: string }) => a.date)).not.toContain(third)

  // The first session and the following ones move to 16:00 together.
  await gridAppointment(page, '11:00', 'Paciente Semanal').click()
  const details = page.getByRole('dialog', { name: 'Detalhes do agendamento' })
  await details.getByRole('button', { name: 'Remarcar' }).click()
  await details.getByLabel('Novo horário').fill('16:00')
  await details.getByLabel('Mover também as sessões seguintes desta série').check()
  await details.getByRole('button', { name: 'Confirmar remarcação' }).click()
  await expect(page.getByText('Sessões remarcadas').first()).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(gridAppointment(page, '16:00', 'Paciente Semanal')).toBeVisible()
  await expect(gridFree(page, '11:00')).toBeVisible()
  const moved = await (await request.get(`/api/appointments?from=${date}&to=${inSaoPaulo(Date.now() + 60 * 864e5)}&q=Semanal`, { headers: s.auth })).json()
  expect(moved.appointments.map((a: { time: string }) => a.time)).toEqual(Array(7).fill('16:00'))
})

test('a client reschedules from the e-mailed link: the page offers only free times and the new invite keeps its UID with SEQUENCE 1', async ({ page, request }) => {
  const username = `cliente${Date.now()}`
  const s = await apiOwner(request, { name: 'Dona Bia', business: 'Clínica Bia', area: 'Nutrição', username, email: uniqueEmail('cliente'), professional: 'Bia', priceCents: 9000 })
  const date = inSaoPaulo(Date.now() + 3 * 864e5)
  const client = `se.remarca.${Date.now()}@example.com`
  const booked = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.6.8.1' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '10:00', clientName: 'Lia Cliente', clientEmail: client },
  })
  expect(booked.status()).toBe(201)
  const id = (await booked.json()).id as string
  const other = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.6.8.2' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '14:00', clientName: 'Outra', clientPhone: '11922221111' },
  })
  expect(other.status()).toBe(201)
  const link = (await waitForMail(client, 'Agendamento confirmado')).match(/\/cancel\/[A-Za-z0-9_-]+/)![0]

  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Seu agendamento' })).toBeVisible()
  await page.getByRole('button', { name: 'Remarcar' }).click()
  const form = page.getByRole('form', { name: 'Remarcar' })
  await expect(form.getByLabel('Nova data')).toHaveValue(date)
  const options = form.getByLabel('Novo horário').locator('option')
  await expect(options.filter({ hasText: '15:00' })).toHaveCount(1)
  await expect(options.filter({ hasText: '14:00' })).toHaveCount(0) // another client's
  await expect(options.filter({ hasText: /^10:00$/ })).toHaveCount(0) // the booking's own
  await form.getByLabel('Novo horário').selectOption('15:00')
  await form.getByRole('button', { name: 'Confirmar novo horário' }).click()
  await expect(page.getByText('Agendamento remarcado').first()).toBeVisible()
  await expect(page.getByRole('main')).toContainText('15:00')

  const ics = calendarOf(await waitForMail(client, 'foi remarcado'))
  expect(ics).toContain(`UID:${id}@agendei`)
  expect(ics).toContain('SEQUENCE:1')
  expect(ics).toMatch(/DTSTART;TZID=America\/Sao_Paulo:\d{8}T150000/)
})

test('changes made elsewhere — a client’s booking, the owner on another device — reach the open agenda without reloading', async ({ page, request }) => {
  const username = `aovivo${Date.now()}`
  const email = uniqueEmail('aovivo')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Clínica Lia', area: 'Psicologia', username, email, professional: 'Lia', priceCents: 12000 })
  const date = inSaoPaulo(Date.now() + 864e5)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Próximo' }).click()
  await expect(gridFree(page, '14:00')).toBeVisible()

  const booked = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: { ...H, 'X-Forwarded-For': '10.6.8.1' },
    data: { professionalId: s.professional, serviceId: s.service, date, time: '14:00', clientName: 'Caio Online', clientPhone: '(11) 95555-1212' },
  })
  expect(booked.status()).toBe(201)
  await expect(gridAppointment(page, '14:00', 'Caio Online')).toBeVisible()

  const id = (await booked.json()).id as string
  expect((await request.patch(`/api/appointments/${id}`, { headers: s.auth, data: { status: 'cancelled' } })).status()).toBe(200)
  await expect(gridFree(page, '14:00')).toBeVisible()
})

test('the owner makes a private calendar address on the profile page, a calendar app reads it, and revoking ends it', async ({ page, request }) => {
  const username = `feed${Date.now()}`
  const email = uniqueEmail('feed')
  const s = await apiOwner(request, { name: 'Dona Íris', business: 'Clínica Íris', area: 'Psicologia', username, email, professional: 'Íris', priceCents: 12000 })
  const date = inSaoPaulo(Date.now() + 864e5)
  expect(
    (
      await request.post('/api/appointments', {
        headers: s.auth,
        data: { professionalId: s.professional, serviceId: s.service, date, time: '10:00', clientName: 'Paciente do Feed', clientEmail: 'feed.cliente@example.com' },
      })
    ).status(),
  ).toBe(201)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  const card = page.getByRole('list', { name: 'Calendários' })
  await card.getByRole('button', { name: 'Gerar link — Toda a clínica' }).click()
  await expect(page.getByText('Link do calendário criado').first()).toBeVisible()
  const url = await page.getByLabel('Endereço do calendário — Toda a clínica').inputValue()
  expect(url).toMatch(/\/calendar\/[\w-]+\.ics$/)
  const feed = await request.get(new URL(url).pathname)
  expect(feed.status()).toBe(200)
  const body = await feed.text()
  expect(body).toContain('BEGIN:VCALENDAR')
  expect(body).toContain('Paciente do Feed')
  expect(body).not.toContain('feed.cliente@example.com')

  await card.getByRole('button', { name: 'Revogar — Toda a clínica' }).click()
  await expect(page.getByText('Link revogado').first()).toBeVisible()
  expect((await request.get(new URL(url).pathname)).status()).toBe(404)
})

test('one-tap WhatsApp: the owner edits the reminder text, and tomorrow’s client is a tap away from it with 55 added; the details dialog offers the confirmation', async ({ page, request }) => {
  const username = `zap${Date.now()}`
  const email = uniqueEmail('zap')
  const s = await apiOwner(request, { name: 'Dona Bia', business: 'Clínica Bia', area: 'Nutrição', username, email, professional: 'Bia', priceCents: 9000 })
  const tomorrow = inSaoPaulo(Date.now() + 864e5)
  expect(
    (
      await request.post('/api/appointments', {
        headers: s.auth,
        data: { professionalId: s.professional, serviceId: s.service, date: tomorrow, time: '15:00', clientName: 'Joana Prado', clientPhone: '(21) 98765-4321' },
      })
    ).status(),
  ).toBe(201)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  const messages = page.getByRole('form', { name: 'Mensagens do WhatsApp' })
  await messages.getByLabel('Lembrete').fill('Oi {nome}! Amanhã, {hora}, tem {servico} com {profissional}. Confirma?')
  await messages.getByRole('button', { name: 'Salvar mensagens' }).click()
  await expect(page.getByText('Mensagens salvas').first()).toBeVisible()

  await page.goto('/dashboard')
  const reminders = page.getByRole('list', { name: 'Lembretes de amanhã' })
  await expect(reminders).toContainText('Joana Prado')
  const link = reminders.getByRole('link', { name: 'Enviar lembrete pelo WhatsApp' })
  const href = (await link.getAttribute('href')) ?? ''
  expect(href.startsWith('https://wa.me/5521987654321?text=')).toBe(true)
  expect(decodeURIComponent(href.split('?text=')[1])).toBe('Oi Joana! Amanhã, 15:00, tem Sessão com Bia. Confirma?')

  await page.goto('/agenda')
  await page.getByRole('button', { name: 'Próximo' }).click()
  await gridAppointment(page, '15:00', 'Joana Prado').click()
  const dialog = page.getByRole('dialog', { name: 'Detalhes do agendamento' })
  const confirm = await dialog.getByRole('link', { name: 'Enviar confirmação pelo WhatsApp' }).getAttribute('href')
  expect(decodeURIComponent((confirm ?? '').split('?text=')[1])).toContain('Olá, Joana! Seu horário de Sessão com Bia está confirmado')
})

test('LGPD: the owner exports a client’s data and erases it; the client list shows them only as Cliente removido', async ({ page, request }) => {
  const username = `lgpd${Date.now()}`
  const email = uniqueEmail('lgpd')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Clínica Lia', area: 'Psicologia', username, email, professional: 'Lia', priceCents: 20000 })
  const date = inSaoPaulo(Date.now() + 2 * 864e5)
  expect(
    (
      await request.post('/api/appointments', {
        headers: s.auth,
        data: { professionalId: s.professional, serviceId: s.service, date, time: '11:00', clientName: 'Teresa Sigilo', clientPhone: '(31) 97777-0000', clientEmail: 'teresa@example.com' },
      })
    ).status(),
  ).toBe(201)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/clients')
  await page.getByRole('link', { name: 'Ver histórico de Teresa Sigilo' }).click()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Exportar dados (JSON)' }).click()
  const file = await download
  const exported = JSON.parse((await (await file.createReadStream()).toArray()).join(''))
  expect(exported.client.email).toBe('teresa@example.com')
  expect(exported.appointments).toHaveLength(1)

  await page.getByRole('button', { name: 'Excluir dados do cliente' }).click()
  await page.getByRole('dialog', { name: 'Excluir os dados de Teresa Sigilo?' }).getByRole('button', { name: 'Excluir dados' }).click()
  await expect(page.getByText('Dados do cliente excluídos').first()).toBeVisible()
  await expect(page).toHaveURL(/\/clients$/)
  await expect(page.getByText('Cliente removido').first()).toBeVisible()
  await expect(page.getByText('Teresa Sigilo')).toHaveCount(0)
})
