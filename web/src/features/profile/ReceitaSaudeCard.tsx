import { toast } from 'sonner'
import * as z from 'zod/mini'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, FormError } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select } from '@/components/ui/select'
import { Skeleton } from '@/components/ui/skeleton'
import { formatDocument, occupations, useReceiptSettings, useSaveReceiptSettings, type ReceiptSettings } from '@/lib/api/endpoints/receipts'
import { serverError, showServerError, useSchemaForm, type FormSchema } from '@/lib/form'

type Fields = { enabled: boolean; document: string; occupation: string }

const schema: FormSchema<Fields, ReceiptSettings> = z
  .object({ enabled: z.boolean(), document: z.string().check(z.trim()), occupation: z.string() })
  .check(
    z.refine((f) => !f.enabled || [11, 14].includes(f.document.replace(/\D/g, '').length), { message: 'Informe o CPF (11 dígitos) ou o CNPJ (14 dígitos).', path: ['document'] }),
    z.refine((f) => !f.enabled || f.occupation !== '', { message: 'Escolha a ocupação.', path: ['occupation'] }),
  )

const fields = (s: ReceiptSettings): Fields => ({ enabled: s.enabled, document: formatDocument(s.document), occupation: s.occupation })

/**
 * 'Receita Saúde' (issue 43 §4): the switch that asks the payer's CPF at
 * booking and on the client's page, and makes the month's receipts and the
 * Carnê-Leão file (Relatórios → Receita Saúde). The CPF or CNPJ's check
 * digits are the server's to check.
 */
export function ReceitaSaudeCard() {
  const { data } = useReceiptSettings()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Receita Saúde</CardTitle>
        <CardDescription>
          Desde 2025, profissionais de saúde autônomos emitem cada recibo pelo Receita Saúde, com o CPF de quem paga. Ligado, o Agendei pede o CPF do pagador e prepara, por
          mês, os recibos e o arquivo para importar no Carnê-Leão.
        </CardDescription>
      </CardHeader>
      <CardContent>{data ? <ReceitaSaudeForm settings={data} /> : <Skeleton className="h-32" />}</CardContent>
    </Card>
  )
}

function ReceitaSaudeForm({ settings }: { settings: ReceiptSettings }) {
  const form = useSchemaForm(schema, fields(settings))
  const save = useSaveReceiptSettings()
  const { errors } = form.formState
  const enabled = form.watch('enabled')
  const onSubmit = form.handleSubmit(
    (body) =>
      save.mutate(body, {
        onSuccess: (saved) => {
          form.reset(fields(saved))
          toast.success(saved.enabled ? 'Recibos do Receita Saúde ligados' : 'Recibos do Receita Saúde desligados')
        },
        onError: (e) => toast.error('Erro', { description: showServerError(form, e, 'Não foi possível salvar.') }),
      }),
    () => toast.error('Campos obrigatórios', { description: 'Confira os campos destacados.' }),
  )
  return (
    <form onSubmit={(e) => void onSubmit(e).catch(() => {})} className="grid gap-3" noValidate aria-label="Receita Saúde">
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" className="size-4" {...form.register('enabled')} />
        Emitir recibos do Receita Saúde
      </label>
      {enabled ? (
        <>
          <Field id="receipts-document" label="CPF ou CNPJ de quem recebe" hint="Sai em cada recibo." error={errors.document?.message}>
            <Input id="receipts-document" inputMode="numeric" placeholder="000.000.000-00" {...form.register('document')} />
          </Field>
          <Field id="receipts-occupation" label="Ocupação no Carnê-Leão" error={errors.occupation?.message}>
            <Select id="receipts-occupation" {...form.register('occupation')}>
              <option value="">Escolha…</option>
              {occupations.map(([code, label]) => (
                <option key={code} value={code}>
                  {code} — {label}
                </option>
              ))}
            </Select>
          </Field>
        </>
      ) : null}
      <FormError message={serverError(form)} />
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar'}
        </Button>
      </div>
    </form>
  )
}
