import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { apiOwner, audit, H, login, uniqueEmail, waitForMail } from './helpers'

// axe-core on every screen, signed out and signed in, in light and dark mode:
// any serious or critical violation fails the test, naming rule and elements.

const heading = (name: string | RegExp) => async (p: Page) => {
  await expect(p.getByRole('heading', { name }).first()).toBeVisible()
}

// One practice per test and theme, with a booking two days ahead and its cancel link.
async function practice(page: Page, request: APIRequestContext, theme: 'light' | 'dark', part: string) {
  const username = `axe${part}${theme}${Date.now()}`
  const email = uniqueEmail(`axe${part}${theme}`)
  const { auth, professional, service } = await apiOwner(request, {
    name: 'Dona Iris', business: 'Clínica Íris', area: 'Psicologia', username, email, professional: 'Íris', priceCents: 15000,
  })
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + 2 * 864e5),
  )
  const booked = await request.post(`/api/public/profiles/${username}/bookings`, {
    headers: H,
    data: { professionalId: professional, serviceId: service, date, time: '10:00', clientName: 'Cliente Axe', clientPhone: '11988887777', clientEmail: `${username}@example.com` },
  })
  expect(booked.status()).toBe(201)
  if (theme === 'dark') {
    await page.goto('/')
    await page.evaluate(() => localStorage.setItem('darkMode', 'true'))
  }
  return { username, email, auth, professional, service, date }
}

// The screens in three groups per theme (issue 40, point 6): each test audits about fifteen screens,
// well within half its limit on a quiet machine, so a busy one does not time it out.
for (const theme of ['light', 'dark'] as const) {
  test(`signed-out and public screens pass axe-core (${theme})`, async ({ page, request }) => {
    test.setTimeout(180_000)
    const { username, auth, professional, service, date } = await practice(page, request, theme, 'out')
    const mail = await waitForMail(`${username}@example.com`, 'Agendamento confirmado')
    const cancelPath = mail.match(/\/cancel\/[A-Za-z0-9_-]+/)![0]
    // Signed out.
    await audit(page, '/', heading(/.+/))
    await audit(page, '/login', heading(/.+/))
    await audit(page, '/signup', heading(/.+/))
    await audit(page, '/forgot-password', heading(/.+/))
    await audit(page, '/account-success', heading(/.+/))
    await audit(page, '/policy', heading(/.+/))
    await audit(page, '/terms', heading(/.+/))
    await audit(page, '/support', heading(/.+/))
    await audit(page, '/reviews', heading(/.+/))
    await audit(page, '/pagina-que-nao-existe', heading(/.+/))
    await audit(page, `/agende/${username}`, heading('Clínica Íris'))
    await audit(page, `/agende/${username}/form?service=${service}&date=${date}`, async (p) => {
      await expect(p.getByLabel('Horário', { exact: true })).toBeVisible()
    })
    await audit(page, `/booking?username=${username}`, heading('Clínica Íris'))
    await audit(page, cancelPath, heading('Seu agendamento'))
    // The waitlist's pages (issue 28, point 3): the form, the client's link, an offer made by hand.
    await audit(page, `/agende/${username}/lista-de-espera?service=${service}&professional=${professional}&date=${date}`, heading('Entrar na lista de espera'))
    const waiting = `${username}-espera@example.com`
    const joined = await request.post(`/api/public/profiles/${username}/waitlist`, {
      headers: H,
      data: { serviceId: service, professionalId: professional, firstDate: date, lastDate: date, partOfDay: 'qualquer', clientName: 'Cliente Espera', clientEmail: waiting },
    })
    expect(joined.status()).toBe(201)
    await audit(page, `/lista-de-espera/${(await joined.json()).token}`, heading('Sua lista de espera'))
    const entries = (await (await request.get(`/api/waitlist?date=${date}`, { headers: auth })).json()).entries
    expect((await request.post(`/api/waitlist/${entries[0].id}/offers`, { headers: auth, data: { date, time: '11:00' } })).status()).toBe(201)
    const offer = (await waitForMail(waiting, '/lista-de-espera/oferta/')).match(/\/lista-de-espera\/oferta\/[A-Za-z0-9_-]+/)![0]
    await audit(page, offer, heading('Vagou um horário'))
  })

  test(`the owner's screens pass axe-core (${theme})`, async ({ page, request }) => {
    test.setTimeout(180_000)
    const { email, auth, date } = await practice(page, request, theme, 'in')
    // Signed in.
    await login(page, email, 'segredo1')
    await expect(page).toHaveURL(/\/dashboard$/)
    await audit(page, '/dashboard', heading(/.+/))
    await audit(page, '/profile', heading(/Perfil/))
    await audit(page, '/services', heading(/Serviços/))
    await audit(page, '/add-service', heading(/.+/))
    await audit(page, '/configure-hours', heading(/.+/))
    await audit(page, '/professionals', heading(/.+/))
    await audit(page, '/clients', async (p) => {
      await expect(p.getByText('Cliente Axe').first()).toBeVisible()
    })
    await audit(page, '/agenda', heading('Agenda'))
    await page.goto('/agenda')
    const list = await (await request.get(`/api/appointments?from=${date}&to=${date}`, { headers: auth })).json()
    await audit(page, `/appointment/${list.appointments[0].id}`, async (p) => {
      await expect(p.getByText('Cliente Axe').first()).toBeVisible()
    })
    // The health record (issue 43), the owner writing as the appointment's professional.
    const appt = list.appointments[0]
    expect((await request.put('/api/records/self', { headers: auth, data: { professionalId: appt.professionalId } })).status()).toBe(200)
    const yesterday = new Date(Date.now() - 864e5).toISOString().slice(0, 10)
    expect(
      (await request.post('/api/records/entries', { headers: auth, data: { client: appt.id, kind: 'prontuario', template: 'livre', sessionDate: yesterday, body: 'Nota de teste' } })).status(),
    ).toBe(201)
    await audit(page, `/clients/${appt.id}/prontuario`, async (p) => {
      await expect(p.getByText('Nota de teste')).toBeVisible()
    })
    await audit(page, '/prontuarios', heading('Prontuários'))
  })

  test(`the owner's dialogs pass axe-core (${theme})`, async ({ page, request }) => {
    test.setTimeout(180_000)
    const { username, email } = await practice(page, request, theme, 'dlg')
    await login(page, email, 'segredo1')
    await expect(page).toHaveURL(/\/dashboard$/)
    // Dialogs open over their screens.
    const dialog = (button: string) => async (p: Page) => {
      await p.getByRole('button', { name: button }).first().click()
      await expect(p.getByRole('dialog')).toBeVisible()
    }
    await audit(page, '/services', dialog('Novo Serviço'))
    await audit(page, '/services', async (p) => {
      await p.getByRole('button', { name: 'Excluir Sessão' }).click()
      await expect(p.getByRole('alertdialog', { name: 'Excluir o serviço Sessão?' })).toBeVisible()
    })
    await audit(page, '/professionals', dialog('Adicionar profissional'))
    await audit(page, '/profile', dialog('Excluir conta'))
    await audit(page, '/agenda', dialog('Novo agendamento'))
    await audit(page, '/agenda', dialog('Bloquear horário'))
    await audit(page, '/reports', heading(/Relatórios/))
    await audit(page, '/notifications', heading(/Notificações/))
    await audit(page, '/subscribe', heading(/.+/))
    await audit(page, '/subscription-success', heading(/.+/))
    await audit(page, '/onboarding', heading(/.+/))
    await audit(page, `/preview/${username}`, heading('Clínica Íris'))
  })
}
