import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { clinicWithPaula, H, inSaoPaulo, invitationPath, login, noSideScroll, phoneContext } from './helpers'

// Issue 43 §2 on a phone: a professional's 'Prontuários' lists the record she keeps with its retention dates (no
// 'Eliminar' within the 5 years); the owner exports, for an incident notice, the clients her records name (no note);
// once she allows it, the client reads the prontuário part — never the sigiloso — through the private link.
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true })

const br = (iso: string) => iso.split('-').reverse().join('/')

test("a professional's records with their dates, the owner's incident export, and the client's copy through the private link", async ({ page, browser, request, baseURL }) => {
  const { s, email, paulaEmail, paulaId, ref, token } = await clinicWithPaula(request, 'guarda', '10.9.4.1')
  const yesterday = inSaoPaulo(Date.now() - 864e5)

  // Paula accepts the invitation (through the API: her screens are what this journey looks at).
  expect((await request.put(`/api/members/${paulaId}`, { headers: s.auth, data: { email: paulaEmail } })).status()).toBe(200)
  const invite = (await invitationPath(paulaEmail)).slice('/convite/'.length)
  const accepted = await request.post(`/api/invites/${invite}`, {
    headers: { ...H, 'X-Forwarded-For': '10.9.4.2' },
    data: { password: 'senha-da-paula', recoveryKeyword: 'jabuti' },
  })
  expect(accepted.status()).toBe(200)
  const paulaAuth = { ...H, Authorization: `Bearer ${(await accepted.json()).accessToken}` }

  // She writes, with a past session date, a prontuário entry and a sigiloso one.
  const write = (kind: string, body: string) =>
    request.post('/api/records/entries', { headers: paulaAuth, data: { client: ref, kind, template: 'evolucao', sessionDate: yesterday, body } })
  const first = await write('prontuario', 'Acolhimento e combinados do tratamento.')
  expect(first.status()).toBe(201)
  const recordId = (await first.json()).record.id as string
  expect((await write('sigiloso', 'Hipótese reservada da terapeuta.')).status()).toBe(201)
  const listed = await (await request.get('/api/records/list', { headers: paulaAuth })).json()
  const kept = listed.records.find((r: { id: string }) => r.id === recordId) as { keptUntil: string; lawUntil: string }
  // 5 and 20 years after the last entry, written just now.
  const year = new Date().getUTCFullYear()
  expect(Number(kept.keptUntil.slice(0, 4)) - year).toBeGreaterThanOrEqual(5)
  expect(Number(kept.lawUntil.slice(0, 4)) - Number(kept.keptUntil.slice(0, 4))).toBe(15)

  // Paula's 'Prontuários' on her phone: Carla's record, its dates, the way to it, and no 'Eliminar' yet.
  const ctx = await phoneContext(browser, baseURL)
  const paula = await ctx.newPage()
  await login(paula, paulaEmail, 'senha-da-paula')
  await expect(paula).toHaveURL(/\/agenda$/)
  await paula.getByRole('button', { name: 'Abrir menu' }).click()
  await paula.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Prontuários' }).click()
  await expect(paula).toHaveURL(/\/prontuarios$/)
  const mine = paula.getByRole('region', { name: 'Meus prontuários' })
  await expect(mine.getByRole('heading', { name: 'Carla Souza' })).toBeVisible()
  await expect(mine.getByText(`Guarda mínima até ${br(kept.keptUntil)} (5 anos após a última anotação)`)).toBeVisible()
  await expect(mine.getByText(`Lei 13.787/2018: até ${br(kept.lawUntil)}`)).toBeVisible()
  await expect(mine.getByText(/^Última anotação em \d{2}\/\d{2}\/\d{4}$/)).toBeVisible()
  await expect(mine.getByRole('button', { name: 'Eliminar prontuário' })).toHaveCount(0)
  await expect(paula.getByRole('heading', { name: 'Compartilhados comigo' })).toBeVisible()
  await expect(paula.getByText('Nada compartilhado com você.')).toBeVisible()
  await noSideScroll(paula)
  await mine.getByRole('link', { name: 'Abrir prontuário' }).click()
  await expect(paula).toHaveURL(new RegExp(`/clients/[^/]+/prontuario$`))
  await expect(paula.getByRole('heading', { name: 'Prontuário de Carla Souza' })).toBeVisible()

  // The owner exports, for an incident notice, the clients Paula's records name: identification, never a note.
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/professionals')
  await expect(page.getByText('Para um aviso de incidente (LGPD art. 48): nomes e contatos, nunca as anotações.')).toBeVisible()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Exportar clientes com prontuário de Paula Lima' }).click()
  const file = await downloading
  const csv = readFileSync((await file.path())!, 'utf8')
  expect(csv).toContain('Carla Souza')
  expect(csv).not.toContain('Acolhimento')
  expect(csv).not.toContain('Hipótese')
  await noSideScroll(page)

  // The client's private page: nothing until Paula allows it, then the prontuário part only.
  const client = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' })
  const carla = await client.newPage()
  await carla.goto(`/cancel/${token}`)
  await expect(carla.getByRole('heading', { name: 'Seu agendamento' })).toBeVisible()
  await carla.getByRole('button', { name: 'Ver meu prontuário' }).click()
  await expect(carla.getByText('Nenhum prontuário disponível por este link.')).toBeVisible()
  await carla.getByRole('button', { name: 'Voltar ao agendamento' }).click()
  const allowed = await request.put(`/api/records/${recordId}/client-copy`, { headers: paulaAuth, data: { allow: true } })
  expect(allowed.status()).toBe(200)
  await carla.getByRole('button', { name: 'Ver meu prontuário' }).click()
  await expect(carla.getByRole('heading', { name: 'Prontuário de Carla Souza' })).toBeVisible()
  await expect(carla.getByText('Clínica Rita')).toBeVisible()
  await expect(carla.getByText(/^Paula Lima — CRP/)).toBeVisible()
  const entries = carla.getByRole('list', { name: 'Anotações do prontuário' })
  await expect(entries.getByText('Acolhimento e combinados do tratamento.')).toBeVisible()
  await expect(entries.getByText(`Evolução — atendimento de ${br(yesterday)}`)).toBeVisible()
  await expect(entries.getByText(/^assinado por Paula Lima, CRP[^,]*, em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toHaveCount(1)
  await expect(carla.getByText(/Hipótese reservada/)).toHaveCount(0)
  await expect(carla.getByRole('button', { name: 'Imprimir' })).toBeVisible()
  await noSideScroll(carla)

  // Each of her reads is in Paula's log.
  const log = await (await request.get(`/api/records/${recordId}/log`, { headers: paulaAuth })).json()
  expect(log.log.filter((l: { action: string }) => l.action === 'client-read').length).toBeGreaterThanOrEqual(1)
  expect(log.log.some((l: { action: string }) => l.action === 'export')).toBe(true)
  await ctx.close()
  await client.close()
})
