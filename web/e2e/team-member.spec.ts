import { expect, test } from '@playwright/test'
import { agendaGrid, apiOwner, gridFree, H, inSaoPaulo, invitationPath, login, noSideScroll, phoneContext, uniqueEmail } from './helpers'

// Issue 43 §0 on a phone: the owner invites a professional, who signs in as themself and sees their own agenda only;
// ending the access signs them out.
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true })

test('a professional invited by the owner books in their own agenda, sees nothing of a colleague’s, and is signed out when the owner ends the access', async ({ page, browser, request, baseURL }) => {
  const username = `equipe${Date.now()}`
  const email = uniqueEmail('equipe')
  const paulaEmail = uniqueEmail('paula')
  const s = await apiOwner(request, { name: 'Dona Rita', business: 'Clínica Rita', area: 'Psicologia', username, email, professional: 'Rita', priceCents: 15000 })
  expect((await request.post('/api/professionals', { headers: s.auth, data: { name: 'Paula Lima', specialization: 'Psicóloga', email: paulaEmail } })).status()).toBe(201)
  const date = inSaoPaulo(Date.now() + 864e5)
  // The colleague's client, whom Paula must never see.
  expect(
    (
      await request.post(`/api/public/profiles/${username}/bookings`, {
        headers: { ...H, 'X-Forwarded-For': '10.7.7.1' },
        data: { professionalId: s.professional, serviceId: s.service, date, time: '09:00', clientName: 'Cliente da Rita', clientPhone: '(11) 97777-4321' },
      })
    ).status(),
  ).toBe(201)

  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/professionals')
  await page.getByRole('button', { name: 'Convidar para entrar: Paula Lima' }).click()
  const invite = page.getByRole('dialog', { name: 'Convidar Paula Lima para entrar' })
  await expect(invite.getByLabel('E-mail do profissional')).toHaveValue(paulaEmail)
  await noSideScroll(page)
  await invite.getByRole('button', { name: 'Enviar convite' }).click()
  await expect(page.getByText('Convite enviado').first()).toBeVisible()

  const link = await invitationPath(paulaEmail)
  const ctx = await phoneContext(browser, baseURL)
  const paula = await ctx.newPage()
  // The acceptance signs in from a visitor address of its own (the server bounds sign-ups per address).
  await paula.route('**/api/invites/*', (route) =>
    route.request().method() === 'POST' ? route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': '10.7.7.2' } }) : route.continue(),
  )
  await paula.goto(link)
  await expect(paula.getByText(/Paula Lima, você foi convidado\(a\) para a agenda de Clínica Rita/)).toBeVisible()
  await noSideScroll(paula)
  await paula.getByLabel('Senha', { exact: true }).fill('senha-da-paula')
  await paula.getByLabel('Confirmar senha').fill('senha-da-paula')
  await paula.getByLabel('Palavra-chave de recuperação').fill('jabuti')
  await paula.getByRole('button', { name: 'Criar meu acesso' }).click()
  await expect(paula).toHaveURL(/\/agenda$/)

  // Only the agenda, the clients and her records; nothing of the owner's.
  await paula.getByRole('button', { name: 'Abrir menu' }).click()
  await expect(paula.getByRole('navigation', { name: 'Menu' }).getByRole('link')).toHaveText(['Agenda', 'Clientes', 'Prontuários'])
  await paula.getByRole('button', { name: 'Fechar menu' }).click()
  await expect(paula.getByRole('button', { name: /Bloquear/ })).toHaveCount(0)
  await paula.getByRole('button', { name: 'Próximo' }).click()
  await expect(agendaGrid(paula)).toBeVisible()
  await expect(agendaGrid(paula).getByText('Cliente da Rita')).toHaveCount(0)
  await noSideScroll(paula)

  // She books her own client from a free time.
  await gridFree(paula, '10:00').click()
  const dialog = paula.getByRole('dialog', { name: 'Novo agendamento' })
  await dialog.getByLabel('Nome do cliente *').fill('Cliente da Paula')
  await dialog.getByLabel('Telefone').fill('(11) 96666-5555')
  await dialog.getByLabel('Serviço *').selectOption({ label: 'Sessão (60 min)' })
  await dialog.getByRole('button', { name: 'Agendar', exact: true }).click()
  await expect(paula.getByText('Agendamento criado').first()).toBeVisible()
  await paula.goto('/clients')
  await expect(paula.getByText('Cliente da Paula')).toBeVisible()
  await expect(paula.getByText('Cliente da Rita')).toHaveCount(0)
  // The owner sees it in the practice's agenda.
  const all = await (await request.get(`/api/appointments?from=${date}&to=${date}`, { headers: s.auth })).json()
  expect(all.appointments.map((a: { clientName: string }) => a.clientName).sort()).toEqual(['Cliente da Paula', 'Cliente da Rita'])

  // Her agenda is live: what the owner books for her shows without a reload; a colleague's booking never does.
  await paula.goto('/agenda')
  await paula.getByRole('button', { name: 'Próximo' }).click()
  await expect(agendaGrid(paula).getByText('Cliente da Paula')).toBeVisible()
  const team = (await (await request.get('/api/professionals', { headers: s.auth })).json()) as { id: string; name: string }[]
  const paulaId = team.find((p) => p.name === 'Paula Lima')!.id
  for (const [professionalId, time, clientName] of [
    [s.professional, '15:00', 'Outra da Rita'],
    [paulaId, '14:00', 'Cliente Ao Vivo'],
  ]) {
    const booked = await request.post('/api/appointments', {
      headers: s.auth,
      data: { professionalId, serviceId: s.service, date, time, clientName, clientPhone: '(11) 95555-0000', outsideHours: true },
    })
    expect(booked.status()).toBe(201)
  }
  await expect(agendaGrid(paula).getByText('Cliente Ao Vivo')).toBeVisible()
  await expect(agendaGrid(paula).getByText('Outra da Rita')).toHaveCount(0)

  // The owner ends the access, after a confirmation; Paula's next step finds her signed out.
  await page.reload()
  await page.getByRole('button', { name: 'Encerrar acesso' }).click()
  const confirm = page.getByRole('alertdialog')
  await expect(confirm.getByText('Encerrar o acesso de Paula Lima?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Encerrar acesso' }).click()
  await expect(page.getByText('Acesso encerrado').first()).toBeVisible()
  await paula.reload()
  await expect(paula).toHaveURL(/\/login$/)
  await ctx.close()
})
