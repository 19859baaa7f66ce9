import { expect, test } from '@playwright/test'
import { signup, uniqueEmail } from './helpers'

// The public page never shows the account's e-mail; it shows the contact
// e-mail only once the owner fills it in the profile.
test('the public page shows the contact e-mail the owner chose, never the login e-mail', async ({ page, browser }) => {
  const username = `contato${Date.now()}`
  const login = uniqueEmail('login')
  await signup(page, 'Lia Rocha', login, 'segredo1', 'gato')
  await page.goto('/profile')
  await page.getByLabel('Nome de usuário público').fill(username)
  await page.getByLabel('Área de atuação *').fill('Fonoaudiologia')
  await page.getByRole('button', { name: 'Salvar perfil' }).click()
  await expect(page.getByText('Perfil atualizado com sucesso!')).toBeVisible()

  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const pub = await visitor.newPage()
  await pub.goto(`/agende/${username}`)
  await expect(pub.getByRole('heading', { name: 'Lia Rocha' })).toBeVisible()
  await expect(pub.getByRole('link', { name: 'E-mail' })).toHaveCount(0)
  expect(await pub.content()).not.toContain(login)

  const contact = page.getByLabel('E-mail de contato (opcional, exibido na sua página pública)')
  await contact.fill('não é e-mail')
  await page.getByRole('button', { name: 'Salvar perfil' }).click()
  await expect(page.getByText('Informe um e-mail de contato válido ou deixe o campo em branco.')).toBeVisible()
  await contact.fill('contato@liarocha.com.br')
  await page.getByRole('button', { name: 'Salvar perfil' }).click()
  await expect(page.getByText('Perfil atualizado com sucesso!').first()).toBeVisible()

  await pub.reload()
  await expect(pub.getByRole('link', { name: 'E-mail' })).toHaveAttribute('href', 'mailto:contato@liarocha.com.br')
  expect(await pub.content()).not.toContain(login)
  await visitor.close()
})
