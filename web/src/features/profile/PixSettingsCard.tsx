import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Skeleton } from '@/components/ui/skeleton'
import { usePix, useSavePix, type PixSettings } from '@/lib/api/endpoints/deposits'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'

type Fields = { keyType: '' | 'cpf' | 'cnpj' | 'phone' | 'email' | 'random'; key: string; name: string; city: string }

const schema: FormSchema<Fields, Fields> = z
  .object({
    keyType: z.enum(['', 'cpf', 'cnpj', 'phone', 'email', 'random']),
    key: z.string().check(z.trim()),
    name: z.string().check(z.trim()),
    city: z.string().check(z.trim()),
  })
  .check(
    z.refine((f) => f.keyType === '' || f.key !== '', { message: 'Informe a chave Pix.', path: ['key'] }),
    z.refine((f) => f.keyType === '' || f.name !== '', { message: 'Informe o nome do recebedor.', path: ['name'] }),
    z.refine((f) => f.keyType === '' || f.city !== '', { message: 'Informe a cidade do recebedor.', path: ['city'] }),
  )

const placeholders: Record<Fields['keyType'], string> = {
  '': '',
  cpf: '000.000.000-00',
  cnpj: '00.000.000/0000-00',
  phone: '(11) 98765-4321',
  email: 'voce@exemplo.com.br',
  random: '123e4567-e89b-12d3-a456-426614174000',
}

const fields = (p: PixSettings): Fields => ({ keyType: p.keyType, key: p.key, name: p.name, city: p.city })

/**
 * 'Pix para sinais' (issue 29): the key, receiver's name and city the static
 * Pix of a deposit is built from. Each is checked on the server (CPF and
 * CNPJ check digits, a +55 phone, an e-mail, a random key).
 */
export function PixSettingsCard() {
  const { data } = usePix()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pix para sinais</CardTitle>
        <CardDescription>
          Com sua chave Pix, os serviços com sinal mostram ao cliente o QR Code e o Pix Copia e Cola do valor certo. Você confirma o pagamento com “Sinal recebido”.
        </CardDescription>
      </CardHeader>
      <CardContent>{data ? <PixForm pix={data} /> : <Skeleton className="h-40" />}</CardContent>
    </Card>
  )
}

function PixForm({ pix }: { pix: PixSettings }) {
  const form = useSchemaForm(schema, fields(pix))
  const save = useSavePix()
  const { errors } = form.formState
  const keyType = form.watch('keyType')
  const onSubmit = form.handleSubmit(
    (body) =>
      save.mutate(body, {
        onSuccess: (saved) => {
          form.reset(fields(saved))
          toast.success(saved.key ? 'Chave Pix salva' : 'Chave Pix removida')
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível salvar a chave Pix.') }),
      }),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label="Pix para sinais">
      <Field id="pix-key-type" label="Tipo de chave">
        <Select id="pix-key-type" {...form.register('keyType')}>
          <option value="">Sem chave Pix</option>
          <option value="cpf">CPF</option>
          <option value="cnpj">CNPJ</option>
          <option value="phone">Celular</option>
          <option value="email">E-mail</option>
          <option value="random">Chave aleatória</option>
        </Select>
      </Field>
      {keyType ? (
        <>
          <Field id="pix-key" label="Chave Pix" error={errors.key?.message}>
            <Input id="pix-key" autoCapitalize="none" placeholder={placeholders[keyType]} {...form.register('key')} />
          </Field>
          <Field id="pix-name" label="Nome do recebedor" hint={pix.payloadName ? `No QR Code: ${pix.payloadName}` : 'Como está na sua conta (até 25 letras vão no QR Code).'} error={errors.name?.message}>
            <Input id="pix-name" {...form.register('name')} />
          </Field>
          <Field id="pix-city" label="Cidade do recebedor" hint={pix.payloadCity ? `No QR Code: ${pix.payloadCity}` : 'Até 15 letras vão no QR Code.'} error={errors.city?.message}>
            <Input id="pix-city" {...form.register('city')} />
          </Field>
        </>
      ) : null}
      <FormError message={serverError(form)} />
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar Pix'}
        </Button>
      </div>
    </form>
  )
}
