import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { routes } from '@/app/router'

afterEach(() => vi.unstubAllGlobals())

const pro = (id: string, name: string) => ({ id, name, specialization: 'Psicóloga', email: '', photoUrl: '', active: true, createdAt: '2026-11-01T10:00:00Z', updatedAt: '2026-11-01T10:00:00Z' })

function owner() {
  return stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/professionals') return { status: 200, body: [pro('p1', 'Paula Lima'), pro('p2', 'Rita Alves')] }
    if (c.url === '/api/members') return { status: 200, body: { members: [] } }
    if (c.url === '/api/records/self' && c.method === 'GET') return { status: 200, body: { professionalId: '' } }
    if (c.url === '/api/records/self' && c.method === 'PUT') return { status: 200, body: c.body }
    if (c.url === '/api/record-templates' && c.method === 'GET')
      return {
        status: 200,
        body: {
          templates: [
            { template: 'anamnese', body: 'Demanda:' },
            { template: 'evolucao', body: 'Temas trabalhados:' },
            { template: 'encerramento', body: 'Motivo:' },
          ],
        },
      }
    if (c.url === '/api/record-templates' && c.method === 'PUT') return { status: 200, body: c.body }
    if (c.url === '/api/records/holders.csv?professional=p2') return { status: 200, body: 'nome,telefone', delayMs: 30 }
    if (c.url === '/api/records/holders.csv?professional=p1') return { status: 400, body: { error: { code: 'validation_failed', message: 'Profissional não encontrado.' } } }
    return undefined
  })
}

it("the owner says which professional they are, from the team's, or none", async () => {
  const calls = owner()
  renderRoutes(routes, '/professionals')
  const select = await screen.findByLabelText('Você atende como', {}, { timeout: 10_000 })
  await waitFor(() => expect(select).toHaveValue(''))
  expect(screen.getByText('Seus prontuários são assinados com o nome e o registro no conselho deste profissional.')).toBeInTheDocument()
  expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual(['Não atendo', 'Paula Lima', 'Rita Alves'])
  await userEvent.selectOptions(select, 'p2')
  expect(await screen.findByText('Prontuários atualizados')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/records/self' && c.method === 'PUT')?.body).toEqual({ professionalId: 'p2' })
  expect(select).toHaveValue('p2')
})

it("the owner edits the practice's three templates and saves them together", async () => {
  const calls = owner()
  renderRoutes(routes, '/professionals')
  const evolution = await screen.findByLabelText('Evolução', {}, { timeout: 10_000 })
  expect(evolution).toHaveValue('Temas trabalhados:')
  expect(screen.getByLabelText('Anamnese')).toHaveValue('Demanda:')
  expect(screen.getByLabelText('Encerramento ou encaminhamento')).toHaveValue('Motivo:')
  await userEvent.type(evolution, '\nTécnicas:')
  await userEvent.click(screen.getByRole('button', { name: 'Salvar modelos' }))
  expect(await screen.findByText('Modelos salvos')).toBeInTheDocument()
  expect(calls.find((c) => c.url === '/api/record-templates' && c.method === 'PUT')?.body).toEqual({
    templates: [
      { template: 'anamnese', body: 'Demanda:' },
      { template: 'evolucao', body: 'Temas trabalhados:\nTécnicas:' },
      { template: 'encerramento', body: 'Motivo:' },
    ],
  })
})

it("downloads a professional's record holders for an incident notice, with the token, and shows the server's refusal", async () => {
  const calls = owner()
  const saved: string[] = []
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:lista', revokeObjectURL: () => {} }))
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download)
  })
  renderRoutes(routes, '/professionals')
  const section = (await screen.findByRole('heading', { name: 'Exportar clientes com prontuário' }, { timeout: 10_000 })).closest('section')!
  expect(within(section).getByText('Para um aviso de incidente (LGPD art. 48): nomes e contatos, nunca as anotações.')).toBeInTheDocument()
  await userEvent.click(within(section).getByRole('button', { name: 'Exportar clientes com prontuário de Rita Alves' }))
  expect(await within(section).findByRole('button', { name: /^Exportando\.\.\. de Rita Alves$/ })).toBeDisabled()
  await waitFor(() => expect(saved).toEqual(['clientes-com-prontuario.csv']))
  const call = calls.find((c) => c.url.startsWith('/api/records/holders.csv'))!
  expect(call.headers).toEqual({ Authorization: 'Bearer token-1' })
  await userEvent.click(within(section).getByRole('button', { name: 'Exportar clientes com prontuário de Paula Lima' }))
  expect(await screen.findByText('Profissional não encontrado.')).toBeInTheDocument()
  expect(saved).toHaveLength(1)
  click.mockRestore()
})
