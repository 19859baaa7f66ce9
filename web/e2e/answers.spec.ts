import { expect, test, type APIRequestContext } from '@playwright/test'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { apiOwner, gridAppointment, login, uniqueEmail } from './helpers'

// Issue 28, point 1: a reminder e-mail's one-tap answers. The reminder is
// the owner's setting; the test books an appointment whose reminder falls
// on the next whole minute, waits for the e-mail in the server's outbox and
// follows its links as the client, on a phone, while the owner's agenda is
// open on another.

test.use({ viewport: { width: 360, height: 740 } })

const zone = 'America/Sao_Paulo'
const localDate = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms))
const localTime = (ms: number) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(ms))

/** The one-tap links of the reminder e-mail to `to`, in the order of its buttons (confirm, move, cancel). */
async function reminderTokens(to: string): Promise<string[]> {
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox')
  let tokens: string[] = []
  await expect
    .poll(
      () => {
        for (const n of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
          const text = readFileSync(join(dir, n), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=')
          if (!text.includes(`<${to}>`) || !text.includes('/resposta/')) continue
          tokens = [...new Set([...text.matchAll(/\/resposta\/([A-Za-z0-9_-]+)/g)].map((m) => m[1]))]
        }
        return tokens.length
      },
      { timeout: 100_000, intervals: [1000] },
    )
    .toBe(3)
  return tokens
}

async function ok(r: Promise<{ status(): number; text(): Promise<string> }>, want = 200) {
  const res = await r
  expect(res.status(), await res.text()).toBe(want)
}

async function practice(request: APIRequestContext) {
  const username = `respostas${Date.now()}`
  const email = uniqueEmail('respostas')
  const s = await apiOwner(request, { name: 'Dona Lia', business: 'Clínica Lia', area: 'Psicologia', username, email, professional: 'Lia', priceCents: 15000 })
  await ok(
    request.put('/api/profile', {
      headers: s.auth,
      data: { name: 'Clínica Lia', email, area: 'Psicologia', publicUsername: username, whatsapp: '(11) 97777-4321', contactEmail: 'contato@clinicalia.com.br' },
    }),
  )
  // Cancelling by link only up to 48 hours before: the appointment below is within that.
  await ok(request.put('/api/schedule-rules', { headers: s.auth, data: { slotStep: 30, minNoticeMinutes: 0, bookingWindowDays: 60, cancelCutoffHours: 48 } }))
  return { ...s, email }
}

test('a reminder e-mail confirms with the button of the page its link opens, the open agenda and details show it without a reload, and cancelling past the cutoff gives the practice’s contact', async ({ page, request, browser }) => {
  test.setTimeout(180_000)
  const s = await practice(request)
  // The appointment starts an hour after the next whole minute (at least 8 s away); the one reminder is 60 minutes before.
  const at = Math.ceil((Date.now() + 8_000) / 60_000) * 60_000
  const start = at + 60 * 60_000
  await ok(request.put('/api/profile/reminders', { headers: s.auth, data: { leads: [60], email: 'Olá, {nome}! Seu horário é {data} às {hora}.' } }))
  const client = uniqueEmail('cliente')
  await ok(
    request.post('/api/appointments', {
      headers: s.auth,
      data: {
        professionalId: s.professional,
        serviceId: s.service,
        date: localDate(start),
        time: localTime(start),
        clientName: 'Bruna Dias',
        clientEmail: client,
        clientPhone: '(11) 95555-1234',
        notifyClient: true,
        outsideHours: true,
      },
    }),
    201,
  )

  // The owner's agenda of that day, open on a phone.
  await login(page, s.email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/agenda?d=${localDate(start)}`)
  const box = gridAppointment(page, localTime(start), 'Bruna Dias')
  await expect(box).toHaveAccessibleName(/sem resposta/)

  const [confirm, , cancel] = await reminderTokens(client)
  // The owner has the appointment's details open.
  await box.click()
  const details = page.getByRole('dialog', { name: 'Detalhes do agendamento' })
  await expect(details.getByText('sem resposta')).toBeVisible()

  // The client taps "Confirmar presença" on their phone.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } })
  const tab = await phone.newPage()
  // Opening the link only shows it (a mail scanner opens every link): the owner still sees no answer.
  await tab.goto(`/resposta/${confirm}`)
  await expect(tab.getByRole('heading', { name: 'Confirmar presença?' })).toBeVisible()
  await expect(details.getByText('sem resposta')).toBeVisible()
  await tab.getByRole('button', { name: 'Confirmar presença' }).click()
  await expect(tab.getByRole('heading', { name: 'Presença confirmada' })).toBeVisible()
  await expect(tab.getByRole('status')).toContainText('Clínica Lia')
  // A second tap says it was done.
  await tab.reload()
  await expect(tab.getByRole('status')).toContainText('Você já tinha confirmado')

  // The owner's open agenda shows it, without a reload: the details, then the grid.
  await expect(details.getByText('confirmado pelo cliente')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(box).toHaveAccessibleName(/confirmado pelo cliente/)
  await expect(box.locator('[data-answer="confirmed"]')).toBeVisible()

  // "Cancelar" within 48 hours of the appointment: refused, with the practice's contact.
  await tab.goto(`/resposta/${cancel}`)
  await expect(tab.getByRole('heading', { name: 'Não é possível cancelar por aqui' })).toBeVisible()
  await expect(tab.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('href', /^https:\/\/wa\.me\/5511977774321\?text=/)
  await expect(tab.getByRole('link', { name: 'contato@clinicalia.com.br' })).toHaveAttribute('href', 'mailto:contato@clinicalia.com.br')
  expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  // Nothing was cancelled.
  await expect(box).toHaveAccessibleName(/, confirmado pelo cliente, 60 min, Confirmado/)
  await phone.close()
})
