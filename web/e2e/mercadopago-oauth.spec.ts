import { expect, test } from '@playwright/test'
import { apiOwner, login, manualFold, uniqueEmail } from './helpers'

// "Conectar Mercado Pago" on a 360 px phone: the button sends the owner to
// Mercado Pago's authorization page (cmd/mpfake playing the operator's
// application, which logs in as the seller named and sends the browser
// straight back), the return page hands code and state to the server, and
// the card shows the account — no token typed, no webhook to paste. The
// same return opened again is refused in Portuguese.

test.use({ viewport: { width: 360, height: 740 } })

type Seller = { userId: number; token: string; webhookSecret: string; nickname: string }

test('the owner connects Mercado Pago with one button', async ({ page, request }) => {
  const mp = process.env.E2E_MP_URL!
  const seller = (await (await request.post(`${mp}/_fake/accounts`)).json()) as Seller
  // This seller, not one another spec made meanwhile, logs in at Mercado Pago's page.
  expect((await request.post(`${mp}/_fake/authorize-as?userId=${seller.userId}`)).status()).toBe(204)
  const email = uniqueEmail('mpoauth')
  await apiOwner(request, { name: 'Dora Lima', business: 'Clínica Dora', area: 'Fisioterapia', username: `mpo${Date.now()}`, email, professional: 'Dora', priceCents: 10000 })
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')

  const button = page.getByRole('button', { name: 'Conectar Mercado Pago' })
  await button.scrollIntoViewIfNeeded()
  await expect(manualFold(page, 'Conectar Mercado Pago')).toBeVisible()
  await expect(page.getByLabel('Access Token de produção')).toBeHidden()

  await button.click()
  await expect(page).toHaveURL(/\/profile$/)
  await expect(page.getByText(`Conectado: ${seller.nickname}`)).toBeVisible()
  await expect(page.getByText(`Conta do Mercado Pago nº ${seller.userId}`)).toBeVisible()
  await expect(page.getByText(/Conectado pelo botão/)).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'URL de notificação (webhook)' })).toHaveCount(0)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // The return, opened again (a reload, a shared link), is good no more.
  await page.goto('/profile/mercadopago?code=TG-used&state=used-state-0000000000000000')
  await expect(page.getByRole('alert')).toContainText('Este retorno do Mercado Pago não vale mais')
  await page.getByRole('link', { name: 'Voltar ao perfil' }).click()
  await expect(page.getByText(`Conectado: ${seller.nickname}`)).toBeVisible()
})
