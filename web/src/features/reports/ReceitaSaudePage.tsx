import { Download, Printer } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { ApiError, errorMessage } from '@/lib/api/client'
import { formatDocument, useDownloadCarneLeao, useMonthReceipts, type MonthReceipts } from '@/lib/api/endpoints/receipts'
import { brDate, formatBRL, monthLabel } from '@/lib/format'
import { saveFile } from '@/lib/save-file'
import { cn } from '@/lib/utils'

/** Last month as "2026-10": the month a practice files in the next. */
function lastMonth(now: Date = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth() - 1, 1)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`
}

/**
 * 'Receita Saúde' (issue 43 §4): a month's payments received, each a
 * printable receipt (professional, council, payee's CPF or CNPJ, payer's
 * name and CPF, value in numbers and words, date, service), and the file for
 * the Carnê-Leão Web's import. The month is in the address.
 */
export default function ReceitaSaudePage() {
  const [params, setParams] = useSearchParams()
  const month = /^\d{4}-\d{2}$/.test(params.get('month') ?? '') ? (params.get('month') as string) : lastMonth()
  const { data, isLoading, error } = useMonthReceipts(month)
  const file = useDownloadCarneLeao()
  const [y, m] = month.split('-').map(Number)
  return (
    <div className="mx-auto grid max-w-3xl gap-6 print:max-w-none">
      <div className="print:hidden">
        <BackLink to="/reports">Voltar para relatórios</BackLink>
      </div>
      <h1 className="text-2xl font-bold tracking-tight">Receita Saúde — {monthLabel(y, m).toLowerCase()}</h1>
      <div className="flex flex-wrap items-end gap-2 print:hidden">
        <Field id="receipts-month" label="Mês">
          <Input id="receipts-month" type="month" value={month} onChange={(e) => e.target.value && setParams({ month: e.target.value }, { replace: true })} className="w-44" />
        </Field>
        <Button type="button" variant="outline" onClick={() => window.print()} disabled={!data || data.receipts.length === 0}>
          <Printer aria-hidden /> Imprimir recibos
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={!data || file.isPending}
          onClick={() => file.mutate(month, { onSuccess: saveFile, onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível gerar o arquivo.') }) })}
        >
          <Download aria-hidden /> Baixar arquivo do Carnê-Leão
        </Button>
      </div>
      {isLoading ? <PageSpinner /> : null}
      {error ? (
        <p role="alert" className="text-sm">
          {errorMessage(error, 'Não foi possível carregar os recibos.')}{' '}
          {error instanceof ApiError && error.code === 'receipts_off' ? (
            <Link to="/profile" className="text-brand-700 underline dark:text-brand-200">
              Ir para o Perfil
            </Link>
          ) : null}
        </p>
      ) : null}
      {data ? <Receipts data={data} /> : null}
    </div>
  )
}

function Receipts({ data }: { data: MonthReceipts }) {
  // One receipt printed alone: the others stay off paper until the print dialog closes.
  const [only, setOnly] = useState<string | null>(null)
  useEffect(() => {
    if (!only) return
    const done = () => setOnly(null)
    window.addEventListener('afterprint', done)
    window.print()
    return () => window.removeEventListener('afterprint', done)
  }, [only])
  if (data.receipts.length === 0) return <p className="text-sm">Nenhum pagamento recebido neste mês.</p>
  return (
    <>
      <p className="text-sm print:hidden">
        {data.receipts.length === 1 ? '1 pagamento recebido' : `${data.receipts.length} pagamentos recebidos`}, {formatBRL(data.totalCents)}.
        {data.missingCpf > 0
          ? ` ${data.missingCpf === 1 ? '1 pagamento está' : `${data.missingCpf} pagamentos estão`} sem o CPF de quem pagou e fica${data.missingCpf === 1 ? '' : 'm'} fora do arquivo: preencha o CPF na página do cliente.`
          : ''}
      </p>
      <ol className="grid gap-4" aria-label="Recibos">
        {data.receipts.map((r) => (
          <li key={`${r.appointmentId}-${r.part}`} className={cn('break-inside-avoid', only && only !== `${r.appointmentId}-${r.part}` && 'print:hidden')}>
            <Card className="print:shadow-none">
              <CardHeader>
                <CardTitle>Recibo — {formatBRL(r.amountCents)}</CardTitle>
              </CardHeader>
              <CardContent className="grid gap-1 text-sm">
                <p>
                  Recebi de <strong>{r.payerName}</strong>
                  {r.payerCpf ? `, CPF ${formatDocument(r.payerCpf)},` : ' (CPF não informado),'} a importância de {formatBRL(r.amountCents)} ({r.amountWords}),{' '}
                  {r.part === 'deposit' ? 'como sinal do' : 'referente ao'} atendimento de {r.service} em {brDate(r.sessionDate)}.
                </p>
                <p>Data do pagamento: {brDate(r.date)}</p>
                <p>
                  {r.professional}
                  {r.council ? ` — ${r.council}` : ''}
                </p>
                <p>
                  {data.practice} · {data.payee.length === 14 ? 'CNPJ' : 'CPF'} {formatDocument(data.payee)}
                </p>
                <div className="print:hidden">
                  <Button type="button" size="sm" variant="outline" onClick={() => setOnly(`${r.appointmentId}-${r.part}`)}>
                    <Printer aria-hidden /> Imprimir este recibo
                  </Button>
                </div>
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
    </>
  )
}
