import { expect, test } from '@playwright/test'
import { login, uniqueEmail, apiSignup } from './helpers'

const H = { 'X-Agendei-Client': 'e2e' }

test('a booking made elsewhere appears in the open notifications list without a reload', async ({ page, request }) => {
  const username = `aviso${Date.now()}`
  const email = uniqueEmail('aviso')
  const signup = await apiSignup(request, { name: 'Dona Lia', email, password: 'segredo1', recoveryKeyword: 'gato' })
  const auth = { ...H, Authorization: `Bearer ${(await signup.json()).accessToken}` }
  const days = Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, enabled: true, start: '08:00', end: '20:00' }))
  await request.post('/api/onboarding', { headers: auth, data: { name: 'Lia', area: 'Nutrição', publicUsername: username, services: [{ name: 'Consulta', duration: 30 }], days } })
  const pro = await (await request.post('/api/professionals', { headers: auth, data: { name: 'Lia', specialization: 'Nutricionista' } })).json()
  const services = await (await request.get('/api/services', { headers: auth })).json()

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.getByRole('link', { name: 'Notificações' }).click()
  await expect(page.getByText('Nenhuma notificação')).toBeVisible()
  await expect(page.getByText('Você está em dia! Não há notificações no momento.')).toBeVisible()

  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + 2 * 864e5))
  const r = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: H,
    data: { professionalId: pro.id, serviceId: services[0].id, date, time: '14:00', clientName: 'Paula Reis', clientPhone: '11977776666' },
  })
  expect(r.status()).toBe(201)

  // Live: no reload. A client's booking is news: a toast, and the list.
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Novo agendamento' }).filter({ hasText: /Paula Reis agendou Consulta/ })).toBeVisible()
  const list = page.getByRole('main')
  await expect(list.getByText('Novo agendamento')).toBeVisible()
  await expect(list.getByText(/Paula Reis agendou Consulta/)).toBeVisible()
  await expect(page.getByText('Nova', { exact: true })).toBeVisible()
  await expect(page.getByTestId('unread-badge')).toHaveText('1')
  await expect(page.getByText('1 não lida')).toBeVisible()

  await page.getByRole('button', { name: 'Marcar como lida' }).click()
  await expect(page.getByText('Notificação marcada como lida')).toBeVisible()
  await expect(page.getByText('0 não lidas')).toBeVisible()
  await expect(page.getByTestId('unread-badge')).toHaveCount(0)
  await page.getByRole('button', { name: 'Excluir' }).click()
  await expect(page.getByText('Notificação removida')).toBeVisible()
  await expect(page.getByText('Nenhuma notificação')).toBeVisible()
})

test("the owner's own change on another device shows up live but never as unread", async ({ page, request }) => {
  const username = `outro${Date.now()}`
  const email = uniqueEmail('outro')
  const signup = await apiSignup(request, { name: 'Dona Rita', email, password: 'segredo1', recoveryKeyword: 'gato' })
  // The API's sign-in is another device than the browser's.
  const auth = { ...H, Authorization: `Bearer ${(await signup.json()).accessToken}` }
  const days = Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, enabled: true, start: '08:00', end: '20:00' }))
  await request.post('/api/onboarding', { headers: auth, data: { name: 'Rita', area: 'Estética', publicUsername: username, services: [{ name: 'Limpeza de pele', duration: 30 }], days } })
  const pro = await (await request.post('/api/professionals', { headers: auth, data: { name: 'Rita', specialization: 'Esteticista' } })).json()
  const services = await (await request.get('/api/services', { headers: auth })).json()

  await login(page, email, 'segredo1')
  await page.getByRole('link', { name: 'Notificações' }).click()
  await expect(page.getByText('Nenhuma notificação')).toBeVisible()

  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + 2 * 864e5))
  const r = await request.post('/api/appointments', {
    headers: auth,
    data: { professionalId: pro.id, serviceId: services[0].id, date, time: '15:00', clientName: 'Carla Dias', clientPhone: '11966665555' },
  })
  expect(r.status()).toBe(201)

  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Agendamento criado' })).toBeVisible()
  await expect(page.getByRole('main').getByText(/Carla Dias: Limpeza de pele/)).toBeVisible()
  await expect(page.getByText('0 não lidas')).toBeVisible()
  await expect(page.getByTestId('unread-badge')).toHaveCount(0)
})
