import { expect, test } from '@playwright/test'
import { login, uniqueEmail, apiSignup } from './helpers'

const H = { 'X-Agendei-Client': 'e2e' }

test('an owner in trial subscribes through the local test provider, sees the plan, and cancels', async ({ page, request }) => {
  const email = uniqueEmail('assina')
  const signup = await apiSignup(request, { name: 'Rita', email, password: 'segredo1', recoveryKeyword: 'gato' })
  const auth = { ...H, Authorization: `Bearer ${(await signup.json()).accessToken}` }
  const days = Array.from({ length: 7 }, (_, d) => ({ dayOfWeek: d, enabled: d > 0, start: '09:00', end: '18:00' }))
  await request.post('/api/onboarding', { headers: auth, data: { name: 'Rita', area: 'Yoga', publicUsername: `rita${Date.now()}`, services: [{ name: 'Aula', duration: 60 }], days } })
  await request.post('/api/professionals', { headers: auth, data: { name: 'Rita', specialization: 'Instrutora' } })

  await login(page, email, 'segredo1')
  await expect(page.getByText('Teste Gratuito de 7 Dias Ativo')).toBeVisible()
  await expect(page.getByText('Recursos Premium')).toBeVisible()
  await page.getByRole('link', { name: 'Assinar Premium - R$ 21,90/mês' }).click()
  await expect(page.getByText('Cancele a qualquer momento. Sem compromisso.')).toBeVisible()
  await page.getByRole('button', { name: 'Assinar agora' }).click()

  await expect(page.getByText('Pagamento de teste', { exact: true })).toBeVisible()
  await expect(page.getByText(/nenhuma cobrança real/)).toBeVisible()
  await page.getByRole('button', { name: 'Confirmar pagamento de teste' }).click()
  await expect(page.getByRole('heading', { name: 'Assinatura ativada!' })).toBeVisible()
  await page.getByRole('link', { name: 'Ir para o painel' }).click()

  await expect(page.getByText('Minha Assinatura')).toBeVisible()
  await expect(page.getByText('Ativo', { exact: true })).toBeVisible()
  await expect(page.getByText('Válido até')).toBeVisible()
  await expect(page.getByText('Teste Gratuito de 7 Dias Ativo')).toHaveCount(0)

  await page.getByRole('button', { name: 'Cancelar assinatura' }).click()
  await page.getByRole('button', { name: 'Confirmar cancelamento' }).click()
  await expect(page.getByText('Assinatura cancelada')).toBeVisible()
  await expect(page.getByText(/Sua assinatura será cancelada em \d{2}\/\d{2}\/\d{4}\. Você manterá acesso até essa data\./)).toBeVisible()
  await expect(page.getByText('(renovação cancelada)')).toBeVisible()

  // The system notification of the activation is there.
  await page.getByRole('link', { name: /Notificações/ }).click()
  await expect(page.getByText('Assinatura ativada')).toBeVisible()
})
