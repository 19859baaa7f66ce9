import { expect, it } from 'vitest'
import { emailPattern } from './form'

it('reads an e-mail as the server does: no patterns, a real host name', () => {
  for (const ok of ['ana@example.com', 'maria.souza+tag@clinica.com.br', 'joão@exemplo.com.br', 'a@xn--bcher-kva.xn--p1ai']) expect(emailPattern.test(ok), ok).toBe(true)
  for (const bad of ['%@%.%', 'a@b', 'a@b.c', 'a@-b.com', 'a@b-.com', 'a@b..com', 'a b@c.com', 'a@b.c0m', '@b.com']) expect(emailPattern.test(bad), bad).toBe(false)
})
