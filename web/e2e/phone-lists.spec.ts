import { expect, test, type Page } from '@playwright/test'
import { apiOwner, login, uniqueEmail } from './helpers'

// Issue 26, point 2: below 640 px the professionals, services and clients
// tables are one card per row, each with its actions in sight and named in
// words; from 640 px up they stay tables.

async function owner(page: Page, request: Parameters<typeof apiOwner>[0], prefix: string) {
  const email = uniqueEmail(prefix)
  const s = await apiOwner(request, {
    name: 'Dona Jussara',
    business: 'Espaço Jussara',
    area: 'Fisioterapia',
    username: `${prefix}${Date.now()}`,
    email,
    professional: 'Jussara Albuquerque de Figueiredo',
    priceCents: 15000,
  })
  await request.post('/api/services', {
    headers: s.auth,
    data: { name: 'Avaliação fisioterapêutica completa com reavaliação postural', description: 'Primeira consulta, com exame postural e plano de tratamento.', duration: 90, priceCents: 25000 },
  })
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + 3 * 864e5))
  const r = await request.post('/api/appointments', {
    headers: s.auth,
    data: { professionalId: s.professional, serviceId: s.service, date, time: '10:00', clientName: 'Maria Aparecida dos Santos', clientEmail: 'maria.aparecida.santos@example.com', clientPhone: '11955554444' },
  })
  expect(r.status()).toBe(201)
  // Yesterday's no-show: the reports' per-professional row.
  const yesterday = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() - 864e5))
  const missed = await request.post('/api/appointments', {
    headers: s.auth,
    data: { professionalId: s.professional, serviceId: s.service, date: yesterday, time: '10:00', clientName: 'Rui Faltoso', clientPhone: '11944443333' },
  })
  expect(missed.status()).toBe(201)
  const noShow = await request.patch(`/api/appointments/${(await missed.json()).id}`, { headers: s.auth, data: { status: 'no_show' } })
  expect(noShow.status()).toBe(200)
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
}

/** The page never scrolls sideways, and the element lies inside the viewport. */
async function fitsAndShows(page: Page, name: string) {
  const el = page.getByRole('button', { name }).or(page.getByRole('link', { name })).first()
  await expect(el).toBeVisible()
  const box = (await el.boundingBox())!
  const width = page.viewportSize()!.width
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(width)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 780 } })

  test('professionals, services and clients are cards with their actions in sight', async ({ page, request }) => {
    await owner(page, request, 'cartao')

    await page.goto('/professionals')
    await expect(page.getByRole('columnheader', { name: 'Especialização' })).toBeHidden()
    for (const action of ['Horários de', 'Editar', 'Excluir']) await fitsAndShows(page, `${action} Jussara Albuquerque de Figueiredo`)
    // The actions say what they do in words on a phone, not only by an icon.
    const hours = page.getByRole('button', { name: 'Horários de Jussara Albuquerque de Figueiredo' })
    expect((await hours.boundingBox())!.width).toBeGreaterThan(60)
    await hours.click()
    await expect(page.getByRole('dialog', { name: 'Horários de Jussara Albuquerque de Figueiredo' })).toBeVisible()
    await page.keyboard.press('Escape')

    await page.goto('/services')
    await expect(page.getByText('Avaliação fisioterapêutica completa com reavaliação postural')).toBeVisible()
    await fitsAndShows(page, 'Editar Avaliação fisioterapêutica completa com reavaliação postural')
    await fitsAndShows(page, 'Excluir Avaliação fisioterapêutica completa com reavaliação postural')

    await page.goto('/clients')
    await expect(page.getByText('Maria Aparecida dos Santos').first()).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'Contato' })).toBeHidden()
    await expect(page.getByText('maria.aparecida.santos@example.com')).toBeVisible()
    await fitsAndShows(page, 'Ver histórico de Maria Aparecida dos Santos')
    await fitsAndShows(page, 'Ver histórico de Rui Faltoso')

    await page.goto('/reports')
    await page.getByRole('tab', { name: 'Agendamentos' }).click()
    // (Yesterday falls in this month's default period except on the 1st.)
    const row = page.locator('tr', { hasText: 'Jussara Albuquerque de Figueiredo' })
    await expect(row).toBeVisible()
    // Each line says its column's name (drawn by CSS, so it is not text twice).
    expect(await row.locator('td').last().evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Taxa"')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  })
})

test('from 640 px the same lists are tables', async ({ page, request }) => {
  await owner(page, request, 'tabela')
  await page.goto('/professionals')
  await expect(page.getByRole('columnheader', { name: 'Especialização' })).toBeVisible()
  const row = page.getByRole('row', { name: /Jussara Albuquerque de Figueiredo/ })
  await expect(row.getByRole('cell').nth(1)).toHaveText('Especialista')
  await expect(row.getByRole('button', { name: 'Editar Jussara Albuquerque de Figueiredo' })).toBeVisible()
  // One row: the header and the card layout do not stack on a desktop.
  const cells = await row.getByRole('cell').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)))
  expect(new Set(cells).size).toBe(1)

  await page.goto('/clients')
  await expect(page.getByRole('row', { name: /Maria Aparecida dos Santos/ })).toBeVisible()
})
