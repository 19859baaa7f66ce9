import { expect, test } from '@playwright/test'
import { apiOwner, login, manualFold, uniqueEmail } from './helpers'

// Connecting the owner's Mercado Pago account on a 360 px phone, against the
// fake of Mercado Pago's API the e2e server talks to (cmd/mpfake), by the
// manual form folded under 'Configuração manual (avançado)' (the button is
// e2e/mercadopago-oauth.spec.ts): the public
// key pasted for the token and a refused token are explained in Portuguese,
// naming the field; the right credentials show the account and the webhook
// URL, never the secrets; replacing keeps them when left blank; and it can
// be removed.

test.use({ viewport: { width: 360, height: 740 } })

type Seller = { userId: number; token: string; webhookSecret: string; nickname: string }

const fits = async (page: import('@playwright/test').Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

test('the owner connects Mercado Pago on a phone, and the secrets never come back', async ({ page, request }) => {
  const mp = process.env.E2E_MP_URL!
  const seller = (await (await request.post(`${mp}/_fake/accounts`)).json()) as Seller
  const email = uniqueEmail('mercadopago')
  await apiOwner(request, { name: 'Carla Dias', business: 'Clínica Carla', area: 'Odontologia', username: `mp${Date.now()}`, email, professional: 'Carla', priceCents: 10000 })
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')

  await manualFold(page, 'Conectar Mercado Pago').click()
  const form = page.getByRole('form', { name: 'Conectar Mercado Pago' })
  await form.scrollIntoViewIfNeeded()
  await form.getByRole('button', { name: 'Conectar com o Access Token' }).click()
  await expect(form.getByText('Informe o Access Token de produção.')).toBeVisible()
  await expect(form.getByText('Informe a assinatura secreta do webhook.')).toBeVisible()

  await form.getByLabel('Access Token de produção').fill('APP_USR-5e6f7a8b-0c1d-4e2f-9a3b-4c5d6e7f8a9b')
  await form.getByLabel('Assinatura secreta do webhook').fill(seller.webhookSecret)
  await form.getByRole('button', { name: 'Conectar com o Access Token' }).click()
  await expect(form.getByRole('alert')).toContainText('Isso é a Public Key')

  await form.getByLabel('Access Token de produção').fill('APP_USR-0000000000000000-000000-errado')
  await form.getByRole('button', { name: 'Conectar com o Access Token' }).click()
  await expect(form.getByRole('alert')).toContainText('O Mercado Pago recusou o Access Token')
  await fits(page)

  await form.getByLabel('Access Token de produção').fill(seller.token)
  await form.getByRole('button', { name: 'Conectar com o Access Token' }).click()
  await expect(page.getByText(`Conectado: ${seller.nickname}`)).toBeVisible()
  await expect(page.getByText(`Conta do Mercado Pago nº ${seller.userId}`)).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'URL de notificação (webhook)' })).toHaveValue(/\/webhooks\/mercadopago\/[A-Za-z0-9_-]{20,}$/)
  await fits(page)
  await page.reload()
  await expect(page.getByText(`Conectado: ${seller.nickname}`)).toBeVisible()
  await expect(page.locator('body')).not.toContainText(seller.token)
  await expect(page.locator('body')).not.toContainText(seller.webhookSecret)

  await expect(page.getByText('Nenhum aviso de pagamento recebido ainda.')).toBeVisible()

  // A notice whose signature does not match the kept secret is refused, and the card says what to check.
  const hook = await page.getByRole('textbox', { name: 'URL de notificação (webhook)' }).inputValue()
  const ts = Math.floor(Date.now() / 1000)
  const refused = await request.post(`${hook}?data.id=123&type=payment`, {
    headers: { 'x-signature': `ts=${ts},v1=${'0'.repeat(64)}`, 'x-request-id': 'e2e-forged' },
    data: { type: 'payment', action: 'payment.updated', data: { id: '123' } },
  })
  expect(refused.status()).toBe(401)
  await page.reload()
  await expect(page.getByRole('status').filter({ hasText: 'a assinatura não confere' })).toBeVisible()
  await fits(page)

  // Replacing keeps the stored secrets when left blank (checked with Mercado Pago again).
  await page.getByRole('button', { name: 'Trocar dados de acesso' }).last().click()
  await expect(form.getByLabel('Access Token de produção')).toHaveValue('')
  await form.getByRole('button', { name: 'Conectar com o Access Token' }).click()
  await expect(page.getByText(`Conectado: ${seller.nickname}`)).toBeVisible()
  await expect(page.getByText('a assinatura não confere', { exact: false })).toHaveCount(0)

  // Removing asks first, then the form is back.
  await page.getByRole('button', { name: 'Desconectar' }).last().click()
  const dialog = page.getByRole('alertdialog', { name: 'Desconectar o Mercado Pago?' })
  await expect(dialog).toBeVisible()
  await fits(page)
  await dialog.getByRole('button', { name: 'Desconectar' }).click()
  await expect(page.getByRole('button', { name: 'Conectar Mercado Pago' })).toBeVisible()
})
