import { defineConfig } from '@playwright/test'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// The real `agendei serve` (built by `make build`) on a fresh data dir, driven
// by Debian's Chromium. Workers inherit E2E_DATA_DIR from the main process, so
// tests can read the server's e-mail outbox.
const port = Number(process.env.E2E_PORT ?? 18931)
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'agendei-e2e-'))
const baseURL = `http://127.0.0.1:${port}`
// The fake of Meta's Graph API (cmd/graphfake) the server's WhatsApp Cloud API calls go to.
const graphPort = port + 1000
process.env.E2E_GRAPH_URL ??= `http://127.0.0.1:${graphPort}`
// The operator's Meta app and WhatsApp number (issue 41 §1 and §2), the same on the fake and the server:
// every owner's card offers the Agendei number's switch and 'Conectar meu WhatsApp'. Its allowance is
// small so that e2e/whatsapp-operator.spec.ts sees it run out; only owners who flip the switch use it.
const metaApp = {
  appId: '1234567890123456',
  configId: '987654321098765',
  appSecret: 'e2e-meta-app-secret-0123456789abcdef',
  wabaId: '102290129340398',
  phoneNumberId: '106540352242922',
  token: 'EAAGe2eOperatorToken0123456789',
  verifyToken: 'e2e-operator-verify-token',
  allowance: 3,
}
process.env.E2E_OPERATOR_PHONE_NUMBER_ID ??= metaApp.phoneNumberId
process.env.E2E_OPERATOR_ALLOWANCE ??= String(metaApp.allowance)
// The fake of Mercado Pago's API (cmd/mpfake) the server's Pix deposit calls go to.
const mpPort = port + 2000
process.env.E2E_MP_URL ??= `http://127.0.0.1:${mpPort}`
// The operator's Mercado Pago application ("Conectar Mercado Pago"), the same on the fake and the server.
const mpApp = { clientId: '4934588586838432', clientSecret: 'e2e-client-secret-0123456789', webhookSecret: 'e2e-webhook-secret-0123456789abcdef' }
// The fake of Google's OAuth and Calendar API (cmd/gcalfake) that 'Conectar Google Agenda', the read and the write-back go to,
// with the operator's OAuth client, the same on the fake and the server. Its one account is E2E_GOOGLE_ACCOUNT (e2e/google-calendar.spec.ts).
const gcalPort = port + 3000
process.env.E2E_GCAL_URL ??= `http://127.0.0.1:${gcalPort}`
process.env.E2E_GOOGLE_ACCOUNT ??= 'dona.e2e@gmail.com'
const googleApp = { clientId: '123456789012-e2e.apps.googleusercontent.com', clientSecret: 'GOCSPX-e2e-client-secret' }
const gcal = process.env.E2E_GCAL_URL

// A real CalDAV server, Radicale (the Debian package `radicale`, as the Go tests run it), for
// e2e/caldav-calendar.spec.ts: a throwaway storage folder, one htpasswd user signing in with an app
// password, owner-only rights. The spec makes its own calendars in it.
const radicalePort = port + 4000
process.env.E2E_RADICALE_URL ??= `http://127.0.0.1:${radicalePort}`
process.env.E2E_RADICALE_DIR ??= mkdtempSync(join(tmpdir(), 'agendei-e2e-radicale-'))
const radicale = { dir: process.env.E2E_RADICALE_DIR, user: 'lia', password: 'app-senha-e2e-0123' }
process.env.E2E_RADICALE_USER ??= radicale.user
process.env.E2E_RADICALE_PASSWORD ??= radicale.password
if (!existsSync(join(radicale.dir, 'config'))) {
  writeFileSync(join(radicale.dir, 'users'), `${radicale.user}:${radicale.password}\n`, { mode: 0o600 })
  writeFileSync(
    join(radicale.dir, 'config'),
    [
      '[server]',
      `hosts = 127.0.0.1:${radicalePort}`,
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${join(radicale.dir, 'users')}`,
      'htpasswd_encryption = plain',
      'delay = 0',
      '[storage]',
      `filesystem_folder = ${join(radicale.dir, 'collections')}`,
      '[rights]',
      'type = owner_only',
      '[web]',
      'type = none',
      '[logging]',
      'level = warning',
      '',
    ].join('\n'),
    { mode: 0o600 },
  )
}

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: [
    {
      command: `go run ../cmd/graphfake -addr 127.0.0.1:${graphPort} -app-id ${metaApp.appId} -app-secret ${metaApp.appSecret} -operator-waba ${metaApp.wabaId} -operator-phone ${metaApp.phoneNumberId} -operator-token ${metaApp.token} -webhook ${baseURL}/webhooks/whatsapp`,
      url: `${process.env.E2E_GRAPH_URL}/_fake/ready`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `go run ../cmd/mpfake -addr 127.0.0.1:${mpPort} -redirect-uri ${baseURL}/profile/mercadopago -client-id ${mpApp.clientId} -client-secret ${mpApp.clientSecret} -webhook-secret ${mpApp.webhookSecret}`,
      url: `${process.env.E2E_MP_URL}/_fake/ready`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `radicale --config ${join(radicale.dir, 'config')}`,
      url: `${process.env.E2E_RADICALE_URL}/.well-known/caldav`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `go run ../cmd/gcalfake -addr 127.0.0.1:${gcalPort} -redirect-uri ${baseURL}/profile/google -client-id ${googleApp.clientId} -client-secret ${googleApp.clientSecret} -account ${process.env.E2E_GOOGLE_ACCOUNT}`,
      url: `${gcal}/_fake/ready`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // AGENDEI_DEPOSIT_MINUTE=1s: a deposit's hold minute lasts a second (a test switch), so e2e/deposit.spec.ts sees a 10-minute hold end.
      // --outbound-allow: e2e/busy-calendar.spec.ts serves its calendar address on loopback, and e2e/caldav-calendar.spec.ts's Radicale
      // listens there, which an owner's address may not reach otherwise.
      command: `AGENDEI_DEPOSIT_MINUTE=1s ../bin/agendei serve --addr 127.0.0.1:${port} --data-dir ${process.env.E2E_DATA_DIR} --base-url ${baseURL} --trust-proxy --log-level warn --whatsapp-graph-url ${process.env.E2E_GRAPH_URL} --whatsapp-operator-waba-id ${metaApp.wabaId} --whatsapp-operator-phone-number-id ${metaApp.phoneNumberId} --whatsapp-operator-token ${metaApp.token} --whatsapp-operator-app-secret ${metaApp.appSecret} --whatsapp-operator-verify-token ${metaApp.verifyToken} --whatsapp-operator-allowance ${metaApp.allowance} --whatsapp-app-id ${metaApp.appId} --whatsapp-signup-config-id ${metaApp.configId} --mercadopago-api-url ${process.env.E2E_MP_URL} --mercadopago-auth-url ${process.env.E2E_MP_URL} --mercadopago-client-id ${mpApp.clientId} --mercadopago-client-secret ${mpApp.clientSecret} --mercadopago-webhook-secret ${mpApp.webhookSecret} --google-client-id ${googleApp.clientId} --google-client-secret ${googleApp.clientSecret} --google-auth-url ${gcal}/o/oauth2/v2/auth --google-token-url ${gcal}/token --google-revoke-url ${gcal}/revoke --google-api-url ${gcal}/calendar/v3 --outbound-allow 127.0.0.0/8`,
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
})
