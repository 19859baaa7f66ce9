import { expect, test } from '@playwright/test'
import { apiOwner, login, uniqueEmail } from './helpers'

// A client who gives only a phone manages the booking by its private link:
// the one the confirmation card shows, and the fresh one the owner's
// WhatsApp message carries ({link_cliente}).

function inSaoPaulo(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms))
}

test.use({ viewport: { width: 360, height: 740 } })

test('a client books without e-mail, keeps the link the card shows, and moves and cancels the booking through it; help reaches the practice', async ({ page, request }) => {
  const username = `semmail${Date.now()}`
  const email = uniqueEmail('semmail')
  const s = await apiOwner(request, { name: 'Dona Rita', business: 'Clínica Rita', area: 'Fisioterapia', username, email, professional: 'Rita', priceCents: 12000 })
  // The practice shows its WhatsApp and a contact e-mail on its public page.
  expect(
    (
      await request.put('/api/profile', {
        headers: s.auth,
        data: { name: 'Clínica Rita', email, area: 'Fisioterapia', publicUsername: username, whatsapp: '(11) 97777-1234', contactEmail: 'contato@clinicarita.com.br' },
      })
    ).status(),
  ).toBe(200)
  const date = inSaoPaulo(Date.now() + 2 * 864e5)

  await page.goto(`/agende/${username}/form?service=${s.service}&professional=${s.professional}&date=${date}`)
  await page.getByLabel('Horário', { exact: true }).selectOption('10:00')
  await page.getByLabel('Nome completo *').fill('Rosa Alves')
  await page.getByLabel('Telefone *').fill('(11) 96666-5555')
  // The help footer is the practice's, not Agendei's support.
  const footer = page.locator('footer')
  await expect(footer.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\/5511977771234\?text=/)
  await expect(footer.getByRole('link', { name: 'E-mail' })).toHaveAttribute('href', 'mailto:contato@clinicarita.com.br')
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click()

  await expect(page.getByRole('heading', { name: 'Agendamento confirmado!' })).toBeVisible()
  await expect(page.getByText('Seu link para remarcar ou cancelar')).toBeVisible()
  const link = page.getByRole('link', { name: /\/cancel\// })
  const url = (await link.textContent()) ?? ''
  expect(url).toMatch(new RegExp(`^${test.info().project.use.baseURL}/cancel/[A-Za-z0-9_-]+$`))
  await expect(page.getByRole('button', { name: 'Copiar link' })).toBeVisible()
  const wa = (await page.getByRole('link', { name: 'Enviar para meu WhatsApp' }).getAttribute('href')) ?? ''
  expect(wa.startsWith('https://wa.me/?text=')).toBe(true)
  expect(decodeURIComponent(wa.split('?text=')[1])).toContain(url)
  // Issue 41 §4: Chromium has the Push API, so the card offers reminders on this phone.
  await expect(page.getByRole('button', { name: 'Receber lembretes neste celular' })).toBeVisible()
  // Nothing on the card is wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // Through the link: move to 15:00, then cancel.
  await link.click()
  await expect(page.getByRole('heading', { name: 'Seu agendamento' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Receber lembretes neste celular' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.getByRole('button', { name: 'Remarcar' }).click()
  const move = page.getByRole('form', { name: 'Remarcar' })
  await move.getByLabel('Novo horário').selectOption('15:00')
  await move.getByRole('button', { name: 'Confirmar novo horário' }).click()
  await expect(page.getByText('Agendamento remarcado').first()).toBeVisible()
  await expect(page.getByText('15:00', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Cancelar agendamento' }).click()
  await page.getByRole('alertdialog', { name: 'Cancelar este agendamento?' }).getByRole('button', { name: 'Cancelar agendamento' }).click()
  await expect(page.getByText('Agendamento cancelado').first()).toBeVisible()
  await expect(page.locator('footer').getByRole('link', { name: 'E-mail' })).toHaveAttribute('href', 'mailto:contato@clinicarita.com.br')
})

test('the owner’s WhatsApp reminder with {link_cliente} carries a fresh private link that opens the booking', async ({ page, request }) => {
  const username = `linkcli${Date.now()}`
  const email = uniqueEmail('linkcli')
  const s = await apiOwner(request, { name: 'Dona Lu', business: 'Clínica Lu', area: 'Psicologia', username, email, professional: 'Lu', priceCents: 15000 })
  const tomorrow = inSaoPaulo(Date.now() + 864e5)
  expect(
    (
      await request.post('/api/appointments', {
        headers: s.auth,
        data: { professionalId: s.professional, serviceId: s.service, date: tomorrow, time: '16:00', clientName: 'Caio Reis', clientPhone: '(21) 98765-0000' },
      })
    ).status(),
  ).toBe(201)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')
  const messages = page.getByRole('form', { name: 'Mensagens do WhatsApp' })
  await messages.getByLabel('Lembrete').fill('Oi {nome}! Amanhã, {hora}. Para remarcar ou cancelar: {link_cliente}')
  await messages.getByRole('button', { name: 'Salvar mensagens' }).click()
  await expect(page.getByText('Mensagens salvas').first()).toBeVisible()

  // WhatsApp itself is out of reach here: the window's address is what counts.
  await page.context().route('https://wa.me/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp</title>' }))
  await page.goto('/dashboard')
  const reminders = page.getByRole('list', { name: 'Lembretes de amanhã' })
  await expect(reminders).toContainText('Caio Reis')
  const popup = page.waitForEvent('popup')
  await reminders.getByRole('button', { name: 'Enviar lembrete pelo WhatsApp' }).click()
  const chat = await popup
  await chat.waitForURL(/^https:\/\/wa\.me\//)
  const sent = new URL(chat.url())
  expect(sent.pathname).toBe('/5521987650000')
  const text = sent.searchParams.get('text') ?? ''
  expect(text).toMatch(/^Oi Caio! Amanhã, 16:00\. Para remarcar ou cancelar: http/)
  const fresh = text.split(': ').pop()!
  expect(fresh).toMatch(/\/cancel\/[A-Za-z0-9_-]+$/)

  // The link opens the client's page, which can cancel it.
  const client = await page.context().browser()!.newContext({ viewport: { width: 360, height: 740 } })
  const phone = await client.newPage()
  await phone.goto(fresh)
  await expect(phone.getByRole('heading', { name: 'Seu agendamento' })).toBeVisible()
  await expect(phone.getByText('Sessão')).toBeVisible()
  await expect(phone.getByText('16:00', { exact: true })).toBeVisible()
  await expect(phone.getByRole('button', { name: 'Cancelar agendamento' })).toBeVisible()
  await client.close()
})
