import { expect, test } from '@playwright/test'
import { apiOwner, login, uniqueEmail } from './helpers'

function tomorrowInSaoPaulo(): string {
  const now = new Date(Date.now() + 24 * 3600 * 1000)
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

test.use({ viewport: { width: 360, height: 740 } })

// Issue 43 §3 on a phone: the owner names the professional's council and hides prices; the public page and the whole booking
// then show "Psicóloga — CRP 06/12345" with the full name, "Valor informado no atendimento", and no "R$" anywhere.
test('a psychologist public page within the councils rules: full name and CRP, prices hidden, a booking completes', async ({ page, request }) => {
  const username = `psi${Date.now()}`
  const email = uniqueEmail('psi')
  const { service } = await apiOwner(request, { name: 'Ana', business: 'Consultório Ana Souza', area: 'Psicologia', username, email, professional: 'Ana Souza', priceCents: 18000 })

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)

  // The professional: specialization and council, in the add/edit dialog.
  await page.goto('/professionals')
  await page.getByRole('button', { name: 'Editar Ana Souza' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Especialização *').fill('Psicóloga')
  await dialog.getByLabel('Conselho').selectOption({ label: 'CRP — Psicologia' })
  // Half a registration is refused in the form, in pt-BR.
  await dialog.getByRole('button', { name: 'Salvar alterações' }).click()
  await expect(dialog.getByText('Informe o número de registro no conselho.')).toBeVisible()
  await dialog.getByLabel('UF').selectOption('SP')
  await dialog.getByLabel('Número de registro').fill('06/12345')
  await dialog.getByRole('button', { name: 'Salvar alterações' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('CRP 06/12345')).toBeVisible()

  // Prices off the public page; the owner's services keep theirs.
  await page.goto('/profile')
  const hide = page.getByRole('switch', { name: 'Ocultar preços na página pública' })
  await expect(hide).not.toBeChecked()
  await hide.check()
  await expect(page.getByText('Preços ocultos na página pública')).toBeVisible()
  await expect(hide).toBeChecked()
  await page.goto('/services')
  await expect(page.getByText('R$ 180,00').first()).toBeVisible()

  // The public page, as a client sees it.
  await page.goto(`/agende/${username}`)
  await expect(page.getByRole('link', { name: /Sessão.*Valor informado no atendimento/ })).toBeVisible()
  const team = page.getByRole('region', { name: 'Profissional' })
  await expect(team).toContainText('Ana Souza')
  await expect(team).toContainText('Psicóloga — CRP 06/12345')
  await expect(page.locator('body')).not.toContainText('R$')
  const nobodyScrolls = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
  expect(nobodyScrolls).toBe(true)

  // The booking: the choice, the summary and the confirmation name her with her CRP and state no price.
  await page.goto(`/agende/${username}/form?service=${service}&date=${tomorrowInSaoPaulo()}`)
  await expect(page.getByLabel('Profissional', { exact: true })).toContainText('Ana Souza · Psicóloga — CRP 06/12345')
  await expect(page.getByRole('radiogroup', { name: 'Serviço' })).toContainText('Valor informado no atendimento')
  const time = page.getByLabel('Horário', { exact: true })
  await expect(time.locator('option', { hasText: '10:00' })).toHaveCount(1)
  await time.selectOption('10:00')
  await page.getByLabel('Nome completo *').fill('Maria Silva')
  await page.getByLabel('Telefone *').fill('(11) 98888-7777')
  const summary = page.getByRole('region', { name: 'Resumo' })
  await expect(summary).toContainText('Psicóloga — CRP 06/12345')
  await expect(summary).toContainText('Valor informado no atendimento')
  await expect(page.locator('body')).not.toContainText('R$')
  await page.getByRole('button', { name: 'Confirmar agendamento' }).click()
  const card = page.getByRole('region', { name: 'Agendamento confirmado!' })
  await expect(card).toBeVisible()
  await expect(card).toContainText('Ana Souza')
  await expect(card).toContainText('Psicóloga — CRP 06/12345')
  await expect(card).toContainText('Valor informado no atendimento')
  await expect(page.locator('body')).not.toContainText('R$')
})
