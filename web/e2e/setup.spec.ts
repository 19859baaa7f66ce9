import { expect, test } from '@playwright/test'
import { signup, uniqueEmail } from './helpers'

// A 2×2 red PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
)

test('a new owner onboards, completes the checklist, shares the link and the public page shows the services', async ({ page, browser, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const username = `clinica${Date.now()}`
  await signup(page, 'Ana Souza', uniqueEmail('onb'), 'segredo1', 'gato')
  await expect(page.getByText('Complete sua configuração')).toBeVisible()

  await page.getByRole('link', { name: 'Usar a configuração guiada' }).click()
  await expect(page).toHaveURL(/\/onboarding$/)
  await page.getByRole('button', { name: 'Salvar e continuar' }).click()
  await expect(page.getByText('Preencha todos os campos obrigatórios.')).toBeVisible()
  await page.getByLabel('Nome profissional *').fill('Clínica Ana Souza')
  await page.getByLabel('Área de atuação *').fill('Psicologia')
  await page.getByLabel('Nome de usuário público *').fill(username)
  await page.getByRole('button', { name: 'Salvar e continuar' }).click()

  await expect(page.getByText('Passo 2 de 3')).toBeVisible()
  await page.getByLabel('Nome do serviço *').fill('Consulta individual')
  await page.getByLabel('Duração (min) *').fill('50')
  await page.getByLabel('Preço (R$)').fill('150,00')
  await page.getByRole('button', { name: 'Salvar e continuar' }).click()

  await expect(page.getByText('Passo 3 de 3')).toBeVisible()
  await expect(page.getByText('Fechado')).toHaveCount(2) // Saturday and Sunday
  // Quem atende? "Só eu" is the one tap that makes "Configuração completa!" true.
  await expect(page.getByRole('radio', { name: /Só eu/ })).toBeChecked()
  await page.getByRole('radio', { name: /Minha equipe/ }).check()
  await page.getByRole('button', { name: 'Finalizar e começar teste grátis' }).click()
  await expect(page.getByText('Escreva o nome de quem atende, um por linha.').first()).toBeVisible()
  await page.getByRole('radio', { name: /Só eu/ }).check()
  await page.getByRole('button', { name: 'Finalizar e começar teste grátis' }).click()
  await expect(page.getByText('Configuração completa!')).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard$/)

  // Profile, service, hours and the owner as the professional: the checklist is done, the link books.
  await expect(page.getByText('Complete sua configuração')).toHaveCount(0)
  await expect(page.getByText('Teste Gratuito de 7 Dias Ativo')).toBeVisible()
  await expect(page.getByText('7 dias restantes')).toBeVisible()
  const link = page.getByLabel('Link de agendamento')
  await expect(link).toHaveValue(new RegExp(`/agende/${username}$`))
  await page.getByRole('button', { name: 'Copiar' }).click()
  await expect(page.getByText('Link copiado!')).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain(`/agende/${username}`)

  // A visitor in a private window sees the services.
  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const pub = await visitor.newPage()
  await pub.goto(`/agende/${username}`)
  await expect(pub.getByRole('heading', { name: 'Clínica Ana Souza' })).toBeVisible()
  await expect(pub.getByText('Consulta individual')).toBeVisible()
  await expect(pub.getByText('50 minutos')).toBeVisible()
  await expect(pub.getByText('R$ 150,00')).toBeVisible()
  // With no other step, the public page offers a time for the owner.
  const profile = await (await visitor.request.get(`/api/public/profiles/${username}`)).json()
  expect(profile.professionals).toHaveLength(1)
  let offered: string[] = []
  for (let d = 1; d <= 7 && offered.length === 0; d++) {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + d * 864e5))
    const q = `date=${date}&professional=${profile.professionals[0].id}&service=${profile.services[0].id}`
    offered = (await (await visitor.request.get(`/api/public/profiles/${username}/times?${q}`)).json()).times
  }
  expect(offered.length).toBeGreaterThan(0)
  await pub.goto('/agende/ninguem-tem-este-nome')
  await expect(pub.getByText('Perfil não encontrado')).toBeVisible()
  await visitor.close()
})

test('the profile photo refuses a 6 MB file and a renamed text file, and a PNG shows on the public page', async ({ page }) => {
  const username = `foto${Date.now()}`
  await signup(page, 'Bia Lima', uniqueEmail('foto'), 'segredo1', 'gato')
  await page.goto('/profile')
  await page.getByLabel('Nome de usuário público').fill(username)
  await page.getByLabel('Área de atuação *').fill('Nutrição')
  await page.getByRole('button', { name: 'Salvar perfil' }).click()
  await expect(page.getByText('Perfil atualizado com sucesso!')).toBeVisible()

  const chooser = page.getByLabel('Escolher foto de perfil')
  await chooser.setInputFiles({ name: 'grande.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]) })
  await expect(page.getByText('Arquivo muito grande')).toBeVisible()
  await expect(page.getByText('Por favor, selecione uma imagem menor que 5MB.')).toBeVisible()

  await chooser.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('só texto') })
  await expect(page.getByText('Tipo de arquivo inválido').first()).toBeVisible()

  // Renamed to .png: the browser believes it, the server checks the bytes.
  await chooser.setInputFiles({ name: 'falsa.png', mimeType: 'image/png', buffer: Buffer.from('isto não é uma imagem') })
  await expect(page.getByText('Por favor, selecione uma imagem válida (JPEG, PNG, WebP ou GIF).').first()).toBeVisible()

  await chooser.setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: PNG })
  await expect(page.getByText('Foto de perfil atualizada com sucesso!')).toBeVisible()

  await page.goto(`/agende/${username}`)
  const img = page.getByRole('img', { name: 'Foto de Bia Lima' })
  await expect(img).toBeVisible()
  expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2)
})
