import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { login, signup, uniqueEmail, waitForMail } from './helpers'

test('an owner signs up, stays signed in, signs out and in, resets the password and deletes the account', async ({ page }) => {
  const email = uniqueEmail('ana')
  await signup(page, 'Ana Souza', email, 'segredo1', 'gato preto')
  await expect(page.getByText('Olá, Ana Souza!')).toBeVisible()

  // The session survives a reload (refresh cookie → new access token).
  await page.reload()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('Olá, Ana Souza!')).toBeVisible()

  // Sign out, then in again.
  await page.getByRole('button', { name: 'Sair' }).first().click()
  await expect(page).toHaveURL(/\/$/)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/login$/)
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('Login realizado!')).toBeVisible()

  // A wrong password shows the spec's toast.
  await page.getByRole('button', { name: 'Sair' }).first().click()
  await expect(page).toHaveURL(/\/$/)
  await login(page, email, 'errada123')
  await expect(page.getByText('Erro no login')).toBeVisible()
  await expect(page.getByText('E-mail ou senha incorretos. Verifique seus dados e tente novamente.')).toBeVisible()

  // Reset the password with the keyword (case and spacing do not matter).
  await page.goto('/forgot-password')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Palavra-chave de recuperação').fill('  Gato Preto ')
  await page.getByLabel('Nova senha', { exact: true }).fill('novasenha1')
  await page.getByLabel('Confirmar nova senha').fill('novasenha1')
  await page.getByRole('button', { name: /redefinir/i }).click()
  await expect(page.getByText('Senha redefinida!')).toBeVisible()
  await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 })
  await waitForMail(email, 'foi redefinida')

  await login(page, email, 'novasenha1')
  await expect(page).toHaveURL(/\/dashboard$/)

  // Before leaving, the owner takes the LGPD copy of the account: a JSON file with the e-mail, never the password.
  await page.goto('/profile')
  const [copy] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Baixar meus dados' }).click()])
  expect(copy.suggestedFilename()).toMatch(/^meus-dados-agendei-\d{4}-\d{2}-\d{2}\.json$/)
  const text = readFileSync(await copy.path(), 'utf8')
  expect(JSON.parse(text).conta.email).toBe(email)
  expect(text).not.toContain('novasenha1')

  // Delete the account from the profile's danger zone.
  await expect(page.getByText('Zona de Perigo')).toBeVisible()
  await page.getByRole('button', { name: 'Excluir conta' }).click()
  const dialog = page.getByRole('dialog')
  const confirm = dialog.getByRole('button', { name: /excluir/i }).last()
  await expect(confirm).toBeDisabled()
  await dialog.getByLabel('Senha', { exact: true }).fill('novasenha1')
  await dialog.getByLabel(/EXCLUIR/).fill('EXCLUIR')
  await expect(confirm).toBeEnabled()
  await confirm.click()
  await expect(page.getByText('Conta excluída com sucesso')).toBeVisible()
  await expect(page).toHaveURL(/\/$/)

  // The e-mail no longer signs in.
  await login(page, email, 'novasenha1')
  await expect(page.getByText('Erro no login')).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
})

test('signup shows the spec validation texts', async ({ page }) => {
  await page.goto('/signup')
  const submit = page.getByRole('button', { name: 'Criar conta e começar teste grátis' })
  await submit.click()
  await expect(page.getByText('Por favor, preencha todos os campos obrigatórios.')).toBeVisible()

  await page.getByLabel('Nome completo').fill('Bia')
  await page.getByLabel('E-mail').fill(uniqueEmail('bia'))
  await page.getByLabel('Senha', { exact: true }).fill('123456')
  await page.getByLabel('Confirmar senha').fill('654321')
  await page.getByLabel('Palavra-chave de recuperação').fill('abc')
  await submit.click()
  await expect(page.getByText('As senhas não coincidem.')).toBeVisible()

  await page.getByLabel('Senha', { exact: true }).fill('123')
  await page.getByLabel('Confirmar senha').fill('123')
  await submit.click()
  await expect(page.getByText('A senha deve ter pelo menos 6 caracteres.')).toBeVisible()

  await page.getByLabel('Senha', { exact: true }).fill('123456')
  await page.getByLabel('Confirmar senha').fill('123456')
  await page.getByLabel('Palavra-chave de recuperação').fill('  ab ')
  await submit.click()
  await expect(page.getByText('A palavra-chave de recuperação deve ter pelo menos 3 caracteres.')).toBeVisible()
})

test('a signed-out visitor of a protected page lands on /login, and unknown paths show the 404 page', async ({ page }) => {
  await page.goto('/agenda')
  await expect(page).toHaveURL(/\/login$/)
  await page.goto('/isto-nao-existe')
  await expect(page.getByText('Página não encontrada')).toBeVisible()
  await page.getByRole('link', { name: 'Voltar para o início' }).click()
  await expect(page).toHaveURL(/\/$/)
})

test('a forgotten keyword leads to the e-mailed one-time link, which sets a new password and keyword', async ({ page }) => {
  const email = uniqueEmail('caio')
  await signup(page, 'Caio Lima', email, 'segredo1', 'azul')
  await page.getByRole('button', { name: 'Sair' }).first().click()
  await expect(page).toHaveURL(/\/$/)

  await page.goto('/forgot-password')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Palavra-chave de recuperação').fill('verde')
  await page.getByLabel('Nova senha', { exact: true }).fill('novasenha1')
  await page.getByLabel('Confirmar nova senha').fill('novasenha1')
  const submit = page.getByRole('button', { name: /redefinir/i })
  await submit.click()
  await expect(page.getByText('Palavra-chave incorreta').first()).toBeVisible()
  await submit.click()
  await expect(page.getByRole('button', { name: 'Enviar link por e-mail' })).toBeVisible()
  await page.getByRole('button', { name: 'Enviar link por e-mail' }).click()

  const mail = await waitForMail(email, 'Link para recuperar')
  const link = mail.match(/https?:\/\/[^\s"<>]+\/forgot-password\?token=[A-Za-z0-9_-]+/)
  expect(link).not.toBeNull()
  await page.goto(link![0])
  await page.getByLabel('Nova senha', { exact: true }).fill('outrasenha1')
  await page.getByLabel('Confirmar nova senha').fill('outrasenha1')
  await page.getByLabel('Nova palavra-chave de recuperação').fill('amarelo')
  await page.getByRole('button', { name: /salvar|definir|redefinir/i }).click()
  await expect(page.getByText('Senha redefinida!')).toBeVisible()
  await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 })
  await login(page, email, 'outrasenha1')
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('dark mode persists across reloads as a class on the root', async ({ page }) => {
  await page.goto('/')
  const html = page.locator('html')
  await expect(html).not.toHaveClass(/dark/)
  await page.getByRole('button', { name: 'Alternar tema' }).first().click()
  await expect(html).toHaveClass(/dark/)
  await page.reload()
  await expect(html).toHaveClass(/dark/)
})

test('a refresh whose answer is lost on the way — the owner taps away while the app refreshes — keeps the owner signed in', async ({ page, context }) => {
  const email = uniqueEmail('perdida')
  await signup(page, 'Bia Lopes', email, 'segredo1', 'gato preto')
  await expect(page.getByText('Olá, Bia Lopes!')).toBeVisible()
  // The reloaded page's first refresh reaches the server, which rotates the cookie, but its answer
  // never reaches the browser (a navigation or a dropped network aborts it): the browser keeps the old cookie.
  let first = true
  await page.route('**/api/auth/refresh', async (route) => {
    if (!first) return route.continue()
    first = false
    const before = await context.cookies()
    await route.fetch()
    await context.clearCookies()
    await context.addCookies(before)
    await route.abort('connectionreset')
  })
  await page.reload()
  // The app tries again with the old cookie, inside the server's leeway: still signed in, not sent to /login.
  await expect(page.getByText('Olá, Bia Lopes!')).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.unroute('**/api/auth/refresh')
  await page.reload()
  await expect(page.getByText('Olá, Bia Lopes!')).toBeVisible()
})
