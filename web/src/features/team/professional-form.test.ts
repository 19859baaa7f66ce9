import { expect, it } from 'vitest'
import { professionalFields, professionalSchema } from './professional-form'

const base = { ...professionalFields(), name: 'Ana Souza', specialization: 'Psicóloga' }
const errors = (f: Partial<typeof base>) => {
  const r = professionalSchema.safeParse({ ...base, ...f })
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

// Issue 43 §3: the council's three fields go together, the number as the councils print it — the server's rules, said before sending.
it('checks the council registration as the server does', () => {
  expect(errors({})).toEqual([])
  expect(errors({ council: 'CRP', councilUf: 'SP', councilNumber: ' 06/12345 ' })).toEqual([])
  expect(errors({ council: 'CREFITO', councilUf: 'SP', councilNumber: '3/12345-F' })).toEqual([])
  expect(errors({ councilNumber: '06/12345' })).toEqual(['council: Escolha o conselho do número de registro.'])
  expect(errors({ council: 'CRP', councilUf: 'SP' })).toEqual(['councilNumber: Informe o número de registro no conselho.'])
  expect(errors({ council: 'CRP', councilNumber: '06/12345' })).toEqual(['councilUf: Escolha a UF do registro no conselho.'])
  expect(errors({ council: 'CRP', councilUf: 'SP', councilNumber: 'seis' })).toEqual([
    'councilNumber: Número de registro inválido: use os números (com / . ou -) como estão na carteira do conselho, por exemplo 06/12345.',
  ])
  expect(errors({ council: 'CRP', councilUf: 'SP', councilNumber: '0612345678901234567890' })).toEqual(['councilNumber: O número de registro deve ter no máximo 20 caracteres.'])
})
