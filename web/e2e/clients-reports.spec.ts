import { expect, test, type APIRequestContext } from '@playwright/test'
import { apiOwner, inSaoPaulo, login, uniqueEmail } from './helpers'

/** A date of last month (São Paulo), on the given day. */
function lastMonth(day: number): string {
  const [y, m] = inSaoPaulo(Date.now()).split('-').map(Number)
  const d = new Date(Date.UTC(y, m - 2, day))
  return d.toISOString().slice(0, 10)
}

async function appointment(request: APIRequestContext, s: Awaited<ReturnType<typeof apiOwner>>, body: Record<string, unknown>, status?: string) {
  const r = await request.post('/api/appointments', { headers: s.auth, data: { professionalId: s.professional, serviceId: s.service, time: '10:00', outsideHours: true, ...body } })
  expect(r.status()).toBe(201)
  const { id } = await r.json()
  if (status) expect((await request.patch(`/api/appointments/${id}`, { headers: s.auth, data: { status } })).status()).toBe(200)
}

test('reports of last month count what was attended, and the client list finds a client by name or phone and opens them', async ({ page, request }) => {
  const email = uniqueEmail('numeros')
  const s = await apiOwner(request, { name: 'Dona Vera', business: 'Clínica Vera', area: 'Nutrição', username: `numeros${Date.now()}`, email, professional: 'Vera', priceCents: 15000 })
  // Last month by hand: Lúcia attended twice (R$ 300,00), Marcos did not come, Carla cancelled; one of Lúcia's is still ahead.
  await appointment(request, s, { date: lastMonth(5), clientName: 'Lúcia Prado', clientPhone: '(11) 95555-1234' }, 'completed')
  await appointment(request, s, { date: lastMonth(12), clientName: 'Lúcia Prado', clientPhone: '(11) 95555-1234' }, 'completed')
  await appointment(request, s, { date: lastMonth(19), clientName: 'Marcos Lima', clientEmail: 'marcos@example.com' }, 'no_show')
  await appointment(request, s, { date: lastMonth(20), clientName: 'Carla Dias', clientPhone: '11944443333' }, 'cancelled')
  const ahead = inSaoPaulo(Date.now() + 3 * 864e5)
  await appointment(request, s, { date: ahead, clientName: 'Lúcia Prado', clientPhone: '(11) 95555-1234' })

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/reports')
  await page.getByLabel('Período').selectOption({ label: 'Mês passado' })
  await expect(page).toHaveURL(/periodo=last_month/)
  const stat = (label: string) => page.getByText(label, { exact: true }).locator('..')
  await expect(stat('Receita realizada')).toContainText('R$ 300,00')
  await expect(stat('Receita realizada')).toContainText('2 atendimentos concluídos')
  await expect(stat('Receita agendada')).toContainText('R$ 0,00')
  await expect(stat('Receita por cliente')).toContainText('R$ 300,00')
  await expect(stat('Receita por cliente')).toContainText('1 cliente atendido')
  await expect(stat('Média por atendimento')).toContainText('R$ 150,00')
  await expect(stat('Total de agendamentos')).toContainText('4')
  await expect(page.getByText('Ticket médio')).toHaveCount(0)
  // Two dates of one's own.
  await page.getByLabel('Período').selectOption({ label: 'Personalizado (duas datas)' })
  await page.getByLabel('Data inicial').fill(lastMonth(5))
  await page.getByLabel('Data final').fill(lastMonth(5))
  await expect(stat('Receita realizada')).toContainText('R$ 150,00')

  await page.goto('/clients')
  await expect(page.getByText('3 clientes', { exact: true })).toBeVisible()
  await page.getByLabel('Buscar cliente').fill('lucia')
  await expect(page).toHaveURL(/\?q=lucia$/)
  await expect(page.getByText('1 cliente encontrado')).toBeVisible()
  const row = page.getByRole('row', { name: /Lúcia Prado/ })
  await expect(row.getByRole('cell').nth(2)).toHaveText('2')
  await expect(row.getByRole('cell').nth(4)).toHaveText('R$ 300,00')
  await expect(row).toContainText('1 agendado')
  await page.getByLabel('Buscar cliente').fill('4444-3333')
  await expect(page.getByRole('row', { name: /Carla Dias/ })).toBeVisible()
  await expect(page.getByText('1 cliente encontrado')).toBeVisible()
  await page.getByLabel('Buscar cliente').fill('marcos@example')
  await page.getByRole('link', { name: 'Marcos Lima', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Marcos Lima' })).toBeVisible()
  await expect(page.getByText('Faltas', { exact: true }).locator('..')).toContainText('1')

  // From the agenda's details, the name opens the client too.
  await page.goto(`/agenda?v=day&d=${ahead}`)
  await page.getByRole('button', { name: /^10:00 Lúcia Prado,/ }).click()
  await page.getByRole('dialog').getByRole('link', { name: 'Lúcia Prado' }).click()
  await expect(page).toHaveURL(/\/clients\/[0-9a-f-]{36}$/) // an opaque reference, never the phone
  await expect(page.getByText('Atendimentos', { exact: true }).locator('..')).toContainText('2')

  // And from a notification about them.
  await page.goto('/notifications')
  await page.getByRole('link', { name: 'Ver cliente' }).first().click()
  await expect(page).toHaveURL(/\/clients\/[^/]+$/)
  await expect(page.getByRole('button', { name: 'Editar dados do cliente' })).toBeVisible()
})
