import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { audit } from './helpers'

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => done(port))
    })
  })

/** The demo's next Tuesday after today in São Paulo, YYYY-MM-DD (cmd/agendei/demo.go books its weekly patient there). */
function nextTuesday(): string {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date()).split('-').map(Number)
  const day = new Date(Date.UTC(y, m - 1, d))
  do day.setUTCDate(day.getUTCDate() + 1)
  while (day.getUTCDay() !== 2)
  return day.toISOString().slice(0, 10)
}

test('agendei demo starts a full practice: the printed login opens a dashboard full of numbers and a client list', async ({ browser }) => {
  test.setTimeout(240_000)
  const dir = mkdtempSync(join(tmpdir(), 'agendei-demo-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const demo = spawn('../bin/agendei', ['demo', '--addr', `127.0.0.1:${port}`, '--data-dir', dir, '--base-url', base, '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  demo.stdout.on('data', (b) => (out += String(b)))
  demo.stderr.on('data', (b) => (out += String(b)))
  try {
    await expect.poll(() => out, { timeout: 90_000 }).toContain('Demonstração pronta')
    const email = /e-mail: (\S+)/.exec(out)?.[1] ?? ''
    const password = /senha:\s+(\S+)/.exec(out)?.[1] ?? ''
    const ctx = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } })
    const page = await ctx.newPage()
    await page.goto('/login')
    await page.getByLabel('E-mail').fill(email)
    await page.getByLabel('Senha', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByRole('heading', { name: 'Agendamentos de hoje' })).toBeVisible()
    // Weeks of appointments around today: the week's total is far from zero, whatever the weekday.
    const total = page.getByRole('region', { name: 'Métricas' }).getByText('Total de agendamentos').locator('xpath=../..').locator('.text-2xl')
    await expect.poll(async () => Number(await total.textContent())).toBeGreaterThan(20)
    await page.goto('/clients')
    await expect(page.getByRole('link', { name: /^Ver histórico de / }).first()).toBeVisible()
    // The owner's screens with a full practice's data pass axe-core, on a desktop and on a phone (issue 39, point 15):
    // every appointment box, block and badge the demo draws, not an empty account's. The agenda opens on the demo's
    // next Tuesday (its weekly patient and more): today may be a Sunday, when the practice is closed, or a Saturday
    // morning the demo happened to leave free.
    const tuesday = nextTuesday()
    for (const size of [{ width: 1280, height: 800 }, { width: 360, height: 780 }]) {
      await page.setViewportSize(size)
      await audit(page, '/dashboard', async (p) => {
        await expect(p.getByRole('heading', { name: 'Agendamentos de hoje' })).toBeVisible()
      })
      for (const [view, drawn] of [[`?d=${tuesday}`, /^\d\d:\d\d /], [`?v=week&d=${tuesday}`, /^\d\d:\d\d /], [`?v=month&d=${tuesday}`, /: \d+ agendamentos?/]] as const) {
        await audit(page, `/agenda${view}`, async (p) => {
          await expect(p.getByRole('heading', { name: 'Agenda', exact: true })).toBeVisible()
          await expect(p.locator('main').getByRole('button', { name: drawn }).first()).toBeAttached()
        })
      }
      await audit(page, '/clients', async (p) => {
        await expect(p.getByRole('link', { name: /^Ver histórico de / }).first()).toBeVisible()
      })
      await audit(page, '/reports', async (p) => {
        await expect(p.getByRole('heading', { name: /Relatórios/ })).toBeVisible()
      })
    }
    await ctx.close()
  } finally {
    demo.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
})
