import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { acceptInvitation, clinicWithPaula, inSaoPaulo, invitationPath, login, noSideScroll, phoneContext } from './helpers'

// Issue 43 §1 on a phone: a professional signed in as themself writes a client's prontuário with a past session date,
// corrects it with a reason (both versions stay, signed with her name and CRP), and the log shows it; the practice's
// owner reads none of it, neither before saying which professional they are nor after saying they are a colleague.
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true })

test('a professional writes and corrects a signed note at 360 px; the owner who is no professional reads none of it', async ({ page, browser, request, baseURL }) => {
  // Paula's client is booked for tomorrow (the server's clock is real: the record takes a past session date instead).
  const { s, email, paulaEmail, paulaId, ref } = await clinicWithPaula(request, 'prontuario', '10.8.8.1')
  const yesterday = inSaoPaulo(Date.now() - 864e5)

  // The owner invites Paula; she creates her access from the e-mail.
  expect((await request.put(`/api/members/${paulaId}`, { headers: s.auth, data: { email: paulaEmail } })).status()).toBe(200)
  const ctx = await phoneContext(browser, baseURL)
  const paula = await ctx.newPage()
  await acceptInvitation(paula, await invitationPath(paulaEmail), '10.8.8.2')

  // From the client's page to the record.
  await paula.goto(`/clients/${ref}`)
  await paula.getByRole('link', { name: 'Prontuário' }).click()
  await expect(paula).toHaveURL(new RegExp(`/clients/${ref}/prontuario$`))
  await expect(paula.getByRole('heading', { name: 'Prontuário de Carla Souza' })).toBeVisible()
  await expect(paula.getByText('Nenhuma anotação ainda.')).toBeVisible()
  await noSideScroll(paula)

  const form = paula.getByRole('form', { name: 'Nova anotação' })
  await form.getByLabel('Modelo').selectOption({ label: 'Evolução' })
  await expect(form.getByLabel('Anotação')).toHaveValue(/^Temas trabalhados:/)
  await form.getByLabel('Anotação').fill('Ansiedade no trabalho.\nRespiração diafragmática.')
  await form.getByLabel('Data do atendimento').fill(yesterday)
  await form.getByRole('button', { name: 'Assinar e salvar' }).click()
  await expect(paula.getByText('Anotação salva').first()).toBeVisible()
  const signed = /^assinado por Paula Lima, CRP 06\/12345, em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/
  const notes = paula.getByRole('region', { name: 'Anotações' })
  await expect(notes.getByText('Prontuário', { exact: true })).toBeVisible()
  await expect(notes.getByText(`Atendimento em ${yesterday.split('-').reverse().join('/')}`)).toBeVisible()
  await expect(notes.getByText(signed)).toHaveCount(1)

  // A correction needs its reason, and keeps the first version, signed.
  await notes.getByRole('button', { name: 'Corrigir' }).click()
  await expect(notes.getByLabel('Anotação corrigida')).toHaveValue('Ansiedade no trabalho.\nRespiração diafragmática.')
  await notes.getByLabel('Anotação corrigida').fill('Ansiedade no trabalho.\nRespiração diafragmática e registro de pensamentos.')
  await notes.getByRole('button', { name: 'Assinar correção' }).click()
  await expect(notes.getByText('Diga o motivo da correção.')).toBeVisible()
  await notes.getByLabel('Motivo da correção').fill('Faltou a técnica')
  await notes.getByRole('button', { name: 'Assinar correção' }).click()
  await expect(notes.getByText('Motivo: Faltou a técnica')).toBeVisible()
  await notes.getByText('Versões anteriores (1)').click()
  await expect(notes.getByText(signed)).toHaveCount(2)
  await expect(notes.getByText('Respiração diafragmática e registro de pensamentos.', { exact: false })).toBeVisible()
  await notes.getByText('Registro de acessos').click()
  const log = paula.getByRole('list', { name: 'Registro de acessos' })
  await expect(log.getByText(/ — Paula Lima — escreveu$/)).toHaveCount(1)
  await expect(log.getByText(/ — Paula Lima — corrigiu$/)).toHaveCount(1)
  await noSideScroll(paula)

  // Issue 43 §1–2: a document issued goes into the register, signed.
  const brYesterday = yesterday.split('-').reverse().join('/')
  const doc = paula.getByRole('form', { name: 'Registrar documento' })
  await doc.getByLabel('Data de emissão').fill(yesterday)
  await doc.getByLabel('Finalidade').fill('Declaração de comparecimento')
  await doc.getByLabel('Destinatário').fill('Empresa X')
  await doc.getByRole('button', { name: 'Registrar' }).click()
  await expect(paula.getByText('Documento registrado').first()).toBeVisible()
  const documents = paula.getByRole('list', { name: 'Documentos emitidos' })
  await expect(documents.getByText(brYesterday, { exact: true })).toBeVisible()
  await expect(documents.getByText('Finalidade: Declaração de comparecimento')).toBeVisible()
  await expect(documents.getByText('Destinatário: Empresa X')).toBeVisible()
  await expect(documents.getByText(signed)).toHaveCount(1)
  await noSideScroll(paula)

  // A scanned test attached: listed with its signature, and it downloads back whole.
  const pdf = Buffer.from('%PDF-1.4\nlaudo de teste\n%%EOF\n')
  await paula.getByLabel('Anexar arquivo').setInputFiles({ name: 'laudo.pdf', mimeType: 'application/pdf', buffer: pdf })
  await expect(paula.getByText('Arquivo anexado').first()).toBeVisible()
  const files = paula.getByRole('list', { name: 'Anexos do prontuário' })
  await expect(files.getByText('laudo.pdf')).toBeVisible()
  const got = paula.waitForEvent('download')
  await files.getByRole('button', { name: 'Baixar laudo.pdf' }).click()
  expect(readFileSync(await (await got).path()).toString()).toContain('laudo de teste')
  await noSideScroll(paula)

  // A summary for the owner (the only reader Paula's sign-in can name); the owner reads it, and no note.
  const share = paula.getByRole('form', { name: 'Compartilhar resumo' })
  await expect(share.getByLabel('Compartilhar com')).toHaveValue('owner')
  await share.getByLabel('Resumo').fill('Em acompanhamento semanal; sem risco.')
  await share.getByRole('button', { name: 'Compartilhar' }).click()
  await expect(paula.getByText('Resumo compartilhado com Titular da agenda').first()).toBeVisible()
  await expect(paula.getByRole('list', { name: 'Resumos compartilhados' }).getByText('Com Titular da agenda')).toBeVisible()
  const shared = await request.get('/api/records/shared', { headers: s.auth })
  expect(shared.status()).toBe(200)
  const forOwner = (await shared.json()).shared as { client: string; professional: string; summary?: string; entry?: unknown }[]
  expect(forOwner).toEqual([expect.objectContaining({ client: 'Carla Souza', professional: 'Paula Lima', summary: 'Em acompanhamento semanal; sem risco.' })])
  expect(JSON.stringify(forOwner)).not.toContain('Ansiedade no trabalho')
  await noSideScroll(paula)

  // The client's copy: allowed on the private link, then the printable copy.
  const allow = paula.getByRole('switch', { name: 'O cliente pode ver o prontuário pelo link dele' })
  await expect(allow).not.toBeChecked()
  await allow.check()
  await expect(paula.getByText('O cliente já pode ver o prontuário pelo link dele').first()).toBeVisible()
  await expect(allow).toBeChecked()
  await paula.getByRole('link', { name: 'Cópia para o cliente' }).click()
  await expect(paula).toHaveURL(new RegExp(`/clients/${ref}/prontuario/copia\\?record=`))
  await expect(paula.getByRole('heading', { name: 'Prontuário de Carla Souza' })).toBeVisible()
  await expect(paula.getByText('Consultório: Clínica Rita')).toBeVisible()
  await expect(paula.getByText('Profissional: Paula Lima — CRP 06/12345')).toBeVisible()
  const copy = paula.getByRole('list', { name: 'Anotações do prontuário' })
  await expect(copy.getByText('Respiração diafragmática e registro de pensamentos.', { exact: false })).toBeVisible()
  await expect(copy.getByText(signed)).toHaveCount(2)
  await expect(copy.getByText('Motivo: Faltou a técnica')).toBeVisible()
  await expect(paula.getByRole('button', { name: 'Imprimir' })).toBeVisible()
  await noSideScroll(paula)
  // The copy was logged as a print.
  await paula.getByRole('link', { name: 'Voltar para o prontuário' }).click()
  await paula.getByText('Registro de acessos').click()
  await expect(paula.getByRole('list', { name: 'Registro de acessos' }).getByText(/ — Paula Lima — imprimiu$/)).toHaveCount(1)
  await ctx.close()

  // The owner, who has not said which professional they are, gets the server's word and no note.
  await login(page, email, 'segredo1')
  await expect(page).toHaveURL(/\/dashboard$/)
  await page.goto(`/clients/${ref}/prontuario`)
  await expect(page.getByText('Para escrever prontuários, indique em Profissionais qual profissional é você.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Ir para Profissionais' })).toHaveAttribute('href', '/professionals')
  await expect(page.getByText(/Ansiedade no trabalho/)).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Nova anotação' })).toHaveCount(0)
  await noSideScroll(page)

  // Saying they are Rita gives the owner Rita's records only: Carla was never Rita's client.
  await page.getByRole('link', { name: 'Ir para Profissionais' }).click()
  await page.getByLabel('Você atende como').selectOption({ label: 'Rita' })
  await expect(page.getByText('Prontuários atualizados').first()).toBeVisible()
  await expect(page.getByLabel('Evolução')).toHaveValue(/^Temas trabalhados:/)
  await noSideScroll(page)
  await page.goto(`/clients/${ref}/prontuario`)
  await expect(page.getByText('Cliente não encontrado.')).toBeVisible()
  await expect(page.getByText(/Ansiedade no trabalho/)).toHaveCount(0)
  await expect(page.getByRole('form', { name: 'Nova anotação' })).toHaveCount(0)
})
