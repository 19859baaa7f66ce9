import { expect, test } from '@playwright/test'
import { apiOwner, login, uniqueEmail, waitForMail } from './helpers'

// Where an appointment happens: the practice's address, or — for a service
// marked online — the video-call link, which replaces the address on the
// confirmation card, in the e-mail, in the .ics and in the owner's WhatsApp
// messages ({endereco}, {link_sessao}).

function inSaoPaulo(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms))
}

const room = 'https://meet.example.com/sala-da-bia'
const address = 'Rua das Flores, 123, Sala 4 - Centro, São Paulo - SP, 01001-000'

test.use({ viewport: { width: 360, height: 740 } })

test('the owner sets an address and an online service; the public page shows the address with a map, and booking online gives the link everywhere', async ({ page, request, browser }) => {
  const username = `endereco${Date.now()}`
  const email = uniqueEmail('endereco')
  await apiOwner(request, { name: 'Bia Lopes', business: 'Consultório Bia', area: 'Psicologia', username, email, professional: 'Bia', priceCents: 15000 })

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)

  // The address, typed on a phone (this server has no CEP lookup: nothing fills itself).
  await page.goto('/profile')
  const cep = page.getByLabel('CEP', { exact: true })
  await cep.fill('01001000')
  await expect(cep).toHaveValue('01001-000')
  await page.getByLabel('Rua (logradouro)').fill('Rua das Flores')
  await page.getByLabel('Número', { exact: true }).fill('123')
  await page.getByLabel('Complemento').fill('Sala 4')
  await page.getByLabel('Bairro').fill('Centro')
  await page.getByLabel('Cidade').fill('São Paulo')
  await page.getByLabel('UF', { exact: true }).selectOption('SP')
  await page.getByLabel('Sala fixa de videochamada (opcional)').fill('http://meet.example.com/x')
  await page.getByRole('button', { name: 'Salvar perfil' }).click()
  await expect(page.getByText('O link da videochamada deve começar com https://').first()).toBeVisible()
  await page.getByLabel('Sala fixa de videochamada (opcional)').fill(room)
  // Every new field fits the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.getByRole('button', { name: 'Salvar perfil' }).click()
  await expect(page.getByText('Perfil atualizado com sucesso!').first()).toBeVisible()

  // A WhatsApp reminder that says where.
  const messages = page.getByRole('form', { name: 'Mensagens do WhatsApp' })
  await messages.getByLabel('Lembrete').fill('Oi {nome}! Amanhã, {hora}. Onde: {endereco} | Sala: {link_sessao}')
  await messages.getByRole('button', { name: 'Salvar mensagens' }).click()
  await expect(page.getByText('Mensagens salvas').first()).toBeVisible()

  // An online service, at the room (no link of its own).
  await page.goto('/add-service')
  await page.getByLabel('Nome do serviço *').fill('Sessão online')
  await page.getByLabel('Duração (min) *').fill('50')
  await page.getByLabel('Preço (R$) *').fill('150,00')
  await page.getByRole('checkbox', { name: 'Atendimento online (videochamada)' }).check()
  await expect(page.getByLabel('Link da videochamada (opcional)')).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.getByRole('button', { name: 'Criar Serviço' }).click()
  await expect(page).toHaveURL(/\/services$/)

  // The public page: the address with its map; the online service says so.
  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 360, height: 740 } })
  const pub = await visitor.newPage()
  await pub.goto(`/agende/${username}`)
  await expect(pub.getByText(address)).toBeVisible()
  await expect(pub.getByRole('link', { name: 'Ver no mapa' })).toHaveAttribute('href', `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address).replace(/%20/g, '+')}`)
  const online = pub.getByRole('link', { name: /Sessão online/ })
  await expect(online).toContainText('Online, por videochamada')
  expect(await pub.content()).not.toContain(room) // the link goes to who books
  expect(await pub.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // Booking the online service: the card gives the room link, not the address.
  const tomorrow = inSaoPaulo(Date.now() + 864e5)
  const client = uniqueEmail('cliente')
  const href = (await online.getAttribute('href')) ?? ''
  const professional = await (async () => {
    const p = await (await visitor.request.get(`/api/public/profiles/${username}`)).json()
    return p.professionals[0].id as string
  })()
  await pub.goto(`${href}&professional=${professional}&date=${tomorrow}`)
  await pub.getByLabel('Horário', { exact: true }).selectOption('10:00')
  await pub.getByLabel('Nome completo *').fill('Rosa Alves')
  await pub.getByLabel('Telefone *').fill('(11) 96666-5555')
  await pub.getByLabel('E-mail', { exact: true }).fill(client)
  await pub.getByRole('button', { name: 'Confirmar agendamento' }).click()
  const card = pub.getByRole('region', { name: 'Agendamento confirmado!' })
  await expect(card.getByRole('link', { name: room })).toHaveAttribute('href', room)
  await expect(card).not.toContainText('Rua das Flores')
  expect(await pub.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // The card's invite (.ics) and Google Agenda link say the room too.
  const invite = await visitor.request.get((await card.getByRole('link', { name: 'Baixar convite (.ics)' }).getAttribute('href')) ?? '')
  expect((await invite.text()).replace(/\r\n /g, '')).toContain(`LOCATION:${room}\r\n`)
  expect(await card.getByRole('link', { name: 'Adicionar ao Google Agenda' }).getAttribute('href')).toContain(`location=${encodeURIComponent(room)}`)
  // And the e-mail.
  const mail = await waitForMail(client, 'Agendamento confirmado')
  expect(mail).toContain('Atendimento online')
  expect(mail).toContain(room)
  await visitor.close()

  // The owner's WhatsApp reminder fills {endereco} and {link_sessao} with the room.
  await page.goto('/dashboard')
  const reminders = page.getByRole('list', { name: 'Lembretes de amanhã' })
  await expect(reminders).toContainText('Rosa Alves')
  const wa = (await reminders.getByRole('link', { name: 'Enviar lembrete pelo WhatsApp' }).getAttribute('href')) ?? ''
  expect(new URL(wa).searchParams.get('text')).toBe(`Oi Rosa! Amanhã, 10:00. Onde: ${room} | Sala: ${room}`)
})
