import { expect, test } from '@playwright/test'
import { apiOwner, login, manualFold, uniqueEmail } from './helpers'

// Connecting the owner's WhatsApp Business number on a 360 px phone, against
// the fake of Meta's Graph API the e2e server talks to (cmd/graphfake): a
// wrong token is refused in Portuguese, the right credentials show the
// number's name, the templates under review and the webhook to paste in Meta,
// and approval shows once Meta approves. The e2e server has the operator's
// number and Embedded Signup configured (issue 41): the card first offers the
// Agendei number's switch and 'Conectar meu WhatsApp', the ids-and-token form
// folded under 'Configuração manual (avançado)'; once the owner's own number
// is connected, the switch is gone (their number is used).

test.use({ viewport: { width: 360, height: 740 } })

type Business = { wabaId: string; phoneNumberId: string; token: string; appSecret: string }

test('the owner connects WhatsApp Business on a phone and sees the templates approved', async ({ page, request }) => {
  test.setTimeout(120_000)
  const graph = process.env.E2E_GRAPH_URL!
  const biz = (await (await request.post(`${graph}/_fake/accounts`)).json()) as Business
  const email = uniqueEmail('whatsapp')
  await apiOwner(request, { name: 'Carla Dias', business: 'Clínica Carla', area: 'Odontologia', username: `wa${Date.now()}`, email, professional: 'Carla', priceCents: 10000 })
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')

  await expect(page.getByRole('switch', { name: /pelo WhatsApp do Agendei/ })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Conectar meu WhatsApp' })).toBeVisible()
  await manualFold(page, 'Conectar WhatsApp Business').click()
  const form = page.getByRole('form', { name: 'Conectar WhatsApp Business' })
  await form.getByLabel('ID da conta do WhatsApp Business').fill(biz.wabaId)
  await form.getByLabel('ID do número de telefone').fill(biz.phoneNumberId)
  await form.getByLabel('Token de acesso permanente').fill('EAAG-token-errado')
  await form.getByLabel('Chave secreta do app').fill(biz.appSecret)
  await form.getByRole('button', { name: 'Conectar com os IDs e o token' }).click()
  await expect(form.getByRole('alert')).toContainText('O Meta recusou o token de acesso')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  await form.getByLabel('Token de acesso permanente').fill(biz.token)
  await form.getByRole('button', { name: 'Conectar com os IDs e o token' }).click()
  await expect(page.getByText('Conectado: Clínica Teste ((11) 3333-4444)')).toBeVisible()
  await expect(page.getByRole('switch', { name: /pelo WhatsApp do Agendei/ })).toHaveCount(0)
  const templates = page.getByRole('list', { name: 'Modelos de mensagem' })
  await expect(templates.getByText('Em análise pelo Meta')).toHaveCount(4)
  await expect(templates.getByText('Oferta da lista de espera (com o link para ficar com o horário)')).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'URL de retorno (webhook)' })).toHaveValue(/\/webhooks\/whatsapp\/[A-Za-z0-9_-]{20,}$/)
  await expect(page.getByRole('textbox', { name: 'Token de verificação' })).not.toHaveValue('')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  // The secrets are never shown back.
  await expect(page.locator('body')).not.toContainText(biz.token)

  // Meta approves; the profile shows it (looked up at most every 20 s, so the check waits).
  await request.post(`${graph}/_fake/approve?waba=${biz.wabaId}`)
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('list', { name: 'Modelos de mensagem' }).getByText('Aprovado')).toHaveCount(4, { timeout: 2_000 })
  }).toPass({ timeout: 45_000, intervals: [3_000] })

  // Replacing keeps the stored secrets when left blank.
  await page.getByRole('button', { name: 'Trocar dados de acesso' }).click()
  await expect(form.getByLabel('Token de acesso permanente')).toHaveValue('')
  await form.getByRole('button', { name: 'Conectar com os IDs e o token' }).click()
  await expect(page.getByText('Conectado: Clínica Teste ((11) 3333-4444)')).toBeVisible()
})
