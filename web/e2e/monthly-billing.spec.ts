import { expect, test, type APIRequestContext } from '@playwright/test'
import { apiOwner, inSaoPaulo, login, uniqueEmail } from './helpers'

// Issue 43 §4 on a 360 px phone: a session marked "Pago" in one tap on its
// page, the client's "A receber" following it, and the month's statement
// with the Pix for what is due.
test.use({ viewport: { width: 360, height: 780 } })

/** A date of last month (São Paulo), on the given day. */
function lastMonth(day: number): string {
  const [y, m] = inSaoPaulo(Date.now()).split('-').map(Number)
  return new Date(Date.UTC(y, m - 2, day)).toISOString().slice(0, 10)
}

async function completed(request: APIRequestContext, s: Awaited<ReturnType<typeof apiOwner>>, date: string): Promise<string> {
  const r = await request.post('/api/appointments', {
    headers: s.auth,
    data: { professionalId: s.professional, serviceId: s.service, date, time: '10:00', outsideHours: true, clientName: 'Lúcia Prado', clientPhone: '(11) 95555-1234' },
  })
  expect(r.status()).toBe(201)
  const { id } = await r.json()
  expect((await request.patch(`/api/appointments/${id}`, { headers: s.auth, data: { status: 'completed' } })).status()).toBe(200)
  return id
}

test('marks a session paid on its page and opens the month statement with the Pix for the rest', async ({ page, request }) => {
  const email = uniqueEmail('mensal')
  const s = await apiOwner(request, { name: 'Dona Vera', business: 'Clínica Vera', area: 'Psicologia', username: `mensal${Date.now()}`, email, professional: 'Vera', priceCents: 15000 })
  expect((await request.put('/api/pix', { headers: s.auth, data: { keyType: 'cpf', key: '529.982.247-25', name: 'Vera Lima', city: 'São Paulo' } })).status()).toBe(200)
  const first = await completed(request, s, lastMonth(5))
  await completed(request, s, lastMonth(12))

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/appointment/${first}`)
  const payment = page.getByRole('region', { name: 'Pagamento' })
  await expect(payment).toContainText('A receber: R$ 150,00')
  const toggle = payment.getByRole('button', { name: /Pago/ })
  await expect(toggle).toHaveAttribute('aria-pressed', 'false')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  await expect(payment).toContainText(/Pago em \d{2}\/\d{2}\/\d{4}/)

  await page.goto(`/clients/${first}`)
  const payments = page.getByRole('list', { name: 'Pagamentos do cliente' })
  await expect(payments.getByRole('listitem')).toHaveCount(2)
  await expect(page.getByText('A receber', { exact: true }).locator('..')).toContainText('R$ 150,00')
  await page.getByLabel('Mês do extrato').fill(lastMonth(1).slice(0, 7))
  await page.getByRole('button', { name: 'Ver extrato' }).click()

  await expect(page.getByRole('heading', { name: /^Extrato de / })).toBeVisible()
  const totals = page.getByLabel('Totais')
  await expect(totals).toContainText('TotalR$ 300,00')
  await expect(totals).toContainText('PagoR$ 150,00')
  await expect(totals).toContainText('A pagarR$ 150,00')
  await expect(page.getByRole('img', { name: 'QR Code Pix de R$ 150,00 para VERA LIMA' })).toBeVisible()
  await expect(page.getByLabel('Pix Copia e Cola')).toHaveValue(/^000201.*540[0-9]150\.00/)
  await expect(page.getByRole('link', { name: /Abrir no WhatsApp/ })).toHaveAttribute('href', /^https:\/\/wa\.me\/5511955551234\?text=/)
  // Nothing scrolls sideways on the phone: no element reaches past its right edge.
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *')).filter((e) => e.getBoundingClientRect().right > 360.5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`.slice(0, 80)),
  )
  expect(wide).toEqual([])
})
