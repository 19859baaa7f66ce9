import { expect, test, type Page } from '@playwright/test'
import { apiOwner, login, uniqueEmail } from './helpers'

// Issue 41 §2, "How we will check": 'Conectar meu WhatsApp' from the button
// to the templates created, no id typed. The browser reaches no outside
// site: Meta's JS SDK (connect.facebook.net) is a stand-in served by
// page.route whose FB.login opens Meta's sign-up window as a frame of
// https://www.facebook.com — also served by page.route — and that frame
// posts the sign-up's session logging message to the page, as Meta's
// window does (the card reads it only from an https facebook.com origin);
// then FB.login answers with the one-time code. The code and the ids are
// a business the fake of the Graph API (cmd/graphfake) holds as Meta's
// sign-up leaves it, so the server's exchange, token check, register,
// subscription and templates all run against it. The first try is left
// at a step (CANCEL with current_step): the card says so calmly.

test.use({ viewport: { width: 360, height: 740 } })

type Signup = { wabaId: string; phoneNumberId: string; code: string }

/** Meta's SDK and sign-up window, stood in: each FB.login plays the next of `answers` (a session logging message and whether a code comes). */
async function standInForMeta(page: Page, answers: { message: object; code?: string }[]) {
  const logins: unknown[] = []
  await page.exposeFunction('__recordLogin', (o: unknown) => logins.push(o))
  await page.route('https://connect.facebook.net/**', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: `(() => {
        const answers = ${JSON.stringify(answers)}
        let n = 0
        window.FB = {
          init() {},
          login(cb, options) {
            window.__recordLogin(options)
            const a = answers[n++]
            const frame = document.createElement('iframe')
            frame.title = 'Meta'
            frame.style.display = 'none'
            frame.src = 'https://www.facebook.com/v21.0/dialog/oauth?display=popup&answer=' + encodeURIComponent(JSON.stringify(a.message))
            frame.onload = () => setTimeout(() => cb(a.code ? { status: 'connected', authResponse: { code: a.code } } : { status: 'unknown', authResponse: null }), 200)
            document.body.appendChild(frame)
          },
        }
        if (window.fbAsyncInit) window.fbAsyncInit()
      })()`,
    }),
  )
  await page.route('https://www.facebook.com/**', (route) => {
    const message = new URL(route.request().url()).searchParams.get('answer')!
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><script>parent.postMessage(${JSON.stringify(message)}, '*')</script>`,
    })
  })
  return logins
}

test('the owner connects their own number with Meta’s sign-up window, typing no id, and the templates are created', async ({ page, request }) => {
  test.setTimeout(120_000)
  const graph = process.env.E2E_GRAPH_URL!
  const biz = (await (await request.post(`${graph}/_fake/signup`)).json()) as Signup
  const logins = await standInForMeta(page, [
    { message: { type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: { current_step: 'PHONE_NUMBER_VERIFICATION' } } },
    { message: { type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { phone_number_id: biz.phoneNumberId, waba_id: biz.wabaId, business_id: '8880001234' } }, code: biz.code },
  ])
  const email = uniqueEmail('esignup')
  await apiOwner(request, { name: 'Sara Lins', business: 'Clínica Sorriso', area: 'Odontologia', username: `es${Date.now()}`, email, professional: 'Sara', priceCents: 12000 })
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto('/profile')

  const button = page.getByRole('button', { name: 'Conectar meu WhatsApp' })
  await button.scrollIntoViewIfNeeded()
  // Nothing of Meta's is loaded before the click.
  expect(await page.evaluate(() => 'FB' in window)).toBe(false)

  // The owner closes Meta's window at the number's verification: nothing alarming.
  await button.click()
  await expect(page.getByText('Conexão não concluída: a janela do Meta foi fechada antes do fim.')).toBeVisible()
  await expect(page.locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0)

  // Again, to the end.
  await button.click()
  await expect(page.getByText('Conectado: Clínica Teste ((11) 3222-1000)')).toBeVisible()
  const templates = page.getByRole('list', { name: 'Modelos de mensagem' })
  await expect(templates.getByText('Em análise pelo Meta')).toHaveCount(4)
  // Its events come to the Agendei app: no webhook to paste.
  await expect(page.getByRole('textbox', { name: 'URL de retorno (webhook)' })).toHaveCount(0)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  expect(logins[1]).toMatchObject({ config_id: expect.stringMatching(/^\d+$/), response_type: 'code', override_default_response_type: true, extras: { version: 'v4', sessionInfoVersion: '3' } })

  // At Meta: the templates created in the owner's account, the app subscribed to its webhooks.
  const created = (await (await request.get(`${graph}/_fake/templates?waba=${biz.wabaId}`)).json()) as { name: string }[]
  expect(created.map((t) => t.name).sort()).toEqual(['agendei_cancelamento_v1', 'agendei_confirmacao_v1', 'agendei_lembrete_v1', 'agendei_lista_espera_v1'])
  expect(((await (await request.get(`${graph}/_fake/subscribed?waba=${biz.wabaId}`)).json()) as { subscribed: boolean }).subscribed).toBe(true)

  // Disconnecting unsubscribes the app from the business's account before its token is erased.
  await page.getByRole('button', { name: 'Desconectar' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Desconectar' }).click()
  await expect(page.getByText('WhatsApp desconectado')).toBeVisible()
  await expect(button).toBeVisible()
  expect(((await (await request.get(`${graph}/_fake/subscribed?waba=${biz.wabaId}`)).json()) as { subscribed: boolean }).subscribed).toBe(false)
})
