import { useEffect, useState } from 'react'
import { useAddressState } from '@/lib/address-state'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { toast } from 'sonner'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { BackLink } from '@/components/back-link'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { tableCards } from '@/components/ui/table-cards'
import type { Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { useServices } from '@/lib/api/endpoints/get-services'
import { brDate, formatBRL, formatBRLAxis, statusLabel } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useReports, type ReportFilters } from './api/get-reports'

type Report = Schemas['Report']
type PeriodKey = Report['period']['key']

const periods: { key: PeriodKey; label: string }[] = [
  { key: 'month', label: 'Este mês' },
  { key: 'last_month', label: 'Mês passado' },
  { key: '3months', label: 'Últimos 3 meses' },
  { key: 'year', label: 'Este ano' },
  { key: 'custom', label: 'Personalizado (duas datas)' },
]
const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s)

/** The period lives in the address (?periodo=, ?de=, ?ate=): a reload or a shared link shows the same report. */
function usePeriod() {
  const [params, setParams] = useAddressState()
  const asked = params.get('periodo') as PeriodKey | null
  const key: PeriodKey = periods.some((p) => p.key === asked) ? asked! : 'month'
  const from = params.get('de') ?? ''
  const to = params.get('ate') ?? ''
  const set = (next: Record<'periodo' | 'de' | 'ate', string | undefined>) => setParams(next, true)
  const complete = key !== 'custom' || (isDate(from) && isDate(to) && from <= to)
  const query: ReportFilters = key === 'custom' ? { period: key, from, to } : key === 'month' ? {} : { period: key }
  return { key, from, to, set, complete, query }
}

const tabs = ['Visão Geral', 'Agendamentos', 'Faturamento', 'Futuros'] as const
const monthShort = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez']

export default function ReportsPage() {
  const [tab, setTab] = useState<(typeof tabs)[number]>('Visão Geral')
  const [professional, setProfessional] = useState('')
  const [service, setService] = useState('')
  const period = usePeriod()
  const team = useProfessionals()
  const services = useServices()
  const { data, isLoading, isError } = useReports({ ...period.query, ...(professional ? { professional } : {}), ...(service ? { service } : {}) }, period.complete)
  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Erro ao carregar dados dos relatórios.' })
  }, [isError])

  // min-w-0: a select is as wide as its longest option (a long service name), which would widen the page on a phone.
  const select = 'h-10 w-full min-w-0 rounded-lg border border-stone-300 bg-white px-3 text-sm dark:border-stone-700 dark:bg-stone-900'
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <BackLink />
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Relatórios</h1>
          {data ? (
            <p className="text-sm text-stone-600 dark:text-stone-400">
              De {brDate(data.period.from)} a {brDate(data.period.to)}
            </p>
          ) : null}
        </div>
        <Button asChild variant="outline">
          <Link to="/reports/receita-saude">Receita Saúde e Carnê-Leão</Link>
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1">
          <label htmlFor="rep-period" className="text-sm font-medium">
            Período
          </label>
          <select
            id="rep-period"
            className={select}
            value={period.key}
            onChange={(e) => {
              const key = e.target.value as PeriodKey
              if (key !== 'custom') return period.set({ periodo: key === 'month' ? undefined : key, de: undefined, ate: undefined })
              // A custom period starts as the one shown, for the owner to adjust.
              period.set({ periodo: key, de: period.from || data?.period.from, ate: period.to || data?.period.to })
            }}
          >
            {periods.map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <label htmlFor="rep-professional" className="text-sm font-medium">
            Profissional
          </label>
          <select id="rep-professional" className={select} value={professional} onChange={(e) => setProfessional(e.target.value)}>
            <option value="">Todos</option>
            {(team.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <label htmlFor="rep-service" className="text-sm font-medium">
            Serviço
          </label>
          <select id="rep-service" className={select} value={service} onChange={(e) => setService(e.target.value)}>
            <option value="">Todos</option>
            {(services.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {period.key === 'custom' ? (
        <fieldset className="grid gap-3 sm:grid-cols-3">
          <legend className="sr-only">Período personalizado</legend>
          <div className="grid gap-1">
            <label htmlFor="rep-from" className="text-sm font-medium">
              Data inicial
            </label>
            <Input id="rep-from" type="date" value={period.from} max={period.to || undefined} onChange={(e) => period.set({ periodo: 'custom', de: e.target.value, ate: period.to })} />
          </div>
          <div className="grid gap-1">
            <label htmlFor="rep-to" className="text-sm font-medium">
              Data final
            </label>
            <Input id="rep-to" type="date" value={period.to} min={period.from || undefined} onChange={(e) => period.set({ periodo: 'custom', de: period.from, ate: e.target.value })} />
          </div>
          {!period.complete ? (
            <p role="alert" className="self-end text-sm text-red-700 dark:text-red-400">
              Escolha a data inicial e a final (a inicial antes da final).
            </p>
          ) : null}
        </fieldset>
      ) : null}
      <div role="tablist" aria-label="Relatórios" className="flex flex-wrap gap-1 border-b border-stone-200 dark:border-stone-800">
        {tabs.map((t) => (
          <button
            key={t}
            role="tab"
            aria-selected={tab === t}
            onClick={() => setTab(t)}
            className={cn('-mb-px border-b-2 px-3 py-2 text-sm font-medium', tab === t ? 'border-brand-700 text-brand-800 dark:text-brand-200' : 'border-transparent text-stone-600 dark:text-stone-400')}
          >
            {t}
          </button>
        ))}
      </div>
      {isLoading || !data ? (
        <div className="p-10 text-center">{isError ? null : <Spinner />}</div>
      ) : (
        <div role="tabpanel" aria-label={tab}>
          {tab === 'Visão Geral' ? <Overview r={data} /> : tab === 'Agendamentos' ? (
            <div className="grid gap-4">
              <Appointments r={data} />
              <NoShows r={data} />
            </div>
          ) : tab === 'Faturamento' ? <Revenue r={data} /> : <Future r={data} />}
        </div>
      )}
    </div>
  )
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card>
      <CardContent className="pt-5">
        <p className="text-sm text-stone-600 dark:text-stone-400">{label}</p>
        <div className="mt-1 text-2xl font-bold">{value}</div>
        {hint ? <p className="mt-1 text-xs text-stone-500 dark:text-stone-400">{hint}</p> : null}
      </CardContent>
    </Card>
  )
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`)

/**
 * The period's numbers, each for what it is: realized revenue (attended:
 * completed, up to now) apart from scheduled (confirmed, still ahead); SPEC's
 * average ticket as "Receita por cliente" and, beside it, the average per
 * attended appointment.
 */
function Overview({ r }: { r: Report }) {
  const o = r.overview
  return (
    <div className="grid gap-3">
      <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        <Stat label="Receita realizada" value={formatBRL(o.realizedCents)} hint={`${plural(o.realizedCount, 'atendimento concluído', 'atendimentos concluídos')} até agora`} />
        <Stat label="Receita agendada" value={formatBRL(o.scheduledCents)} hint={`${plural(o.scheduledCount, 'agendamento confirmado', 'agendamentos confirmados')} a acontecer`} />
        <Stat label="Receita por cliente" value={formatBRL(o.revenuePerClientCents)} hint={`Receita realizada ÷ ${plural(o.attendedClients, 'cliente atendido', 'clientes atendidos')}`} />
        <Stat label="Média por atendimento" value={formatBRL(o.averagePerAppointmentCents)} hint="Receita realizada ÷ atendimentos concluídos" />
        <Stat label="Total de agendamentos" value={String(o.totalAppointments)} hint="Todos os status, cancelados inclusive" />
        <Stat label="Clientes únicos" value={String(o.uniqueClients)} hint="Com algum agendamento no período" />
        <Stat label="A receber" value={formatBRL(o.dueCents)} hint={`${plural(o.dueCount, 'sessão realizada ainda não paga', 'sessões realizadas ainda não pagas')}`} />
      </div>
      {r.deposits && r.deposits.receivedCount > 0 ? (
        <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4" aria-label="Sinais">
          <Stat label="Sinais recebidos" value={formatBRL(r.deposits.receivedCents)} hint={plural(r.deposits.receivedCount, 'sinal pago', 'sinais pagos')} />
          <Stat label="Sinais retidos" value={formatBRL(r.deposits.retainedCents)} hint="Faltas e cancelamentos fora do prazo: entram na receita realizada" />
          <Stat label="Sinais devolvidos" value={formatBRL(r.deposits.returnedCents)} hint={plural(r.deposits.returnedCount, 'devolução', 'devoluções')} />
          <Stat label="Sinais a devolver" value={formatBRL(r.deposits.toReturnCents)} hint="Cancelamentos no prazo: devolva via Pix e toque em “Registrar devolução do sinal”" />
        </div>
      ) : null}
      {o.pendingCount > 0 ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          {o.pendingCount === 1 ? '1 agendamento que já passou continua como confirmado' : `${o.pendingCount} agendamentos que já passaram continuam como confirmados`} (
          {formatBRL(o.pendingCents)}). Marque na agenda se foram concluídos ou se o cliente não compareceu: só os concluídos entram na receita realizada.
        </p>
      ) : null}
    </div>
  )
}

function Appointments({ r }: { r: Report }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Por status</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[1fr_auto] gap-2 text-sm">
            {Object.entries(r.byStatus).map(([s, n]) => (
              <div key={s} className="contents">
                <dt>{statusLabel(s)}</dt>
                <dd className="font-semibold">{n}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Datas recentes</CardTitle>
        </CardHeader>
        <CardContent>
          {r.recentDates.length === 0 ? (
            <p className="text-sm text-stone-600">Nenhum agendamento ainda.</p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {r.recentDates.map((d) => (
                <li key={d.date} className="flex justify-between">
                  <span>{brDate(d.date)}</span>
                  <span className="font-semibold">{d.count === 1 ? '1 agendamento' : `${d.count} agendamentos`}</span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

function Revenue({ r }: { r: Report }) {
  const label = (m: string) => `${monthShort[Number(m.slice(5)) - 1]}/${m.slice(2, 4)}`
  const data = r.monthlyRevenue.map((m) => ({ mes: label(m.month), realizada: m.realizedCents / 100, agendada: m.scheduledCents / 100 }))
  const spoken = r.monthlyRevenue.map((m) => `${label(m.month)}: ${formatBRL(m.realizedCents)} realizada, ${formatBRL(m.scheduledCents)} agendada`).join('; ')
  return (
    <Card>
      <CardHeader>
        <CardTitle>Faturamento por mês</CardTitle>
      </CardHeader>
      <CardContent>
        <div className="h-72" role="img" aria-label={`Faturamento mensal — ${spoken}`}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="mes" />
              <YAxis tickFormatter={formatBRLAxis} width={80} />
              <Tooltip formatter={(v: number) => formatBRL(Math.round(v * 100))} />
              <Legend />
              <Bar dataKey="realizada" name="Realizada" stackId="r" fill="#0f766e" />
              <Bar dataKey="agendada" name="Agendada" stackId="r" fill="#99d6cf" radius={[6, 6, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <ul className="mt-4 grid grid-cols-2 gap-2 text-sm sm:grid-cols-3 lg:grid-cols-6">
          {r.monthlyRevenue.map((m) => (
            <li key={m.month}>
              <span className="block text-stone-500 dark:text-stone-400">
                {m.month.slice(5)}/{m.month.slice(0, 4)}
              </span>
              <span className="block font-semibold">{formatBRL(m.realizedCents)}</span>
              {m.scheduledCents > 0 ? <span className="block text-xs text-stone-500 dark:text-stone-400">+ {formatBRL(m.scheduledCents)} agendada</span> : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function Future({ r }: { r: Report }) {
  return (
    <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2">
      <Stat label="Agendamentos futuros" value={String(r.overview.scheduledCount)} hint="Confirmados, ainda por acontecer no período" />
      <Stat label="Receita agendada" value={formatBRL(r.overview.scheduledCents)} />
    </div>
  )
}

/** How often clients did not come, of what was due: in all, per professional and per month. */
function NoShows({ r }: { r: Report }) {
  const n = r.noShows
  return (
    <Card>
      <CardHeader>
        <CardTitle>Faltas (não compareceu)</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <p>
          <span className="text-2xl font-bold">{n.rate}%</span> de faltas · {n.count} de {n.due} {n.due === 1 ? 'agendamento realizado' : 'agendamentos realizados'}
        </p>
        {n.byProfessional.length > 0 ? (
          <table className={cn(tableCards.table, 'text-left')}>
            <caption className="sr-only">Faltas por profissional</caption>
            <thead className={cn(tableCards.head, 'text-stone-600 dark:text-stone-400')}>
              <tr>
                <th className="py-1 font-medium">Profissional</th>
                <th className="py-1 font-medium">Faltas</th>
                <th className="py-1 font-medium">Taxa</th>
              </tr>
            </thead>
            <tbody className={tableCards.body}>
              {n.byProfessional.map((g) => (
                <tr key={g.name} className={cn(tableCards.row, 'shadow-none sm:border-0')}>
                  <td className={cn(tableCards.title, 'sm:px-0 sm:py-1 sm:font-normal')}>{g.name}</td>
                  <td className={cn(tableCards.cell, 'sm:px-0 sm:py-1')} data-label="Faltas">
                    {g.count} de {g.due}
                  </td>
                  <td className={cn(tableCards.cell, 'font-semibold sm:px-0 sm:py-1')} data-label="Taxa">
                    {g.rate}%
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6" aria-label="Faltas por mês">
          {n.byMonth.map((m) => (
            <li key={m.name}>
              <span className="block text-stone-500 dark:text-stone-400">
                {m.name.slice(5)}/{m.name.slice(0, 4)}
              </span>
              <span className="font-semibold">{m.rate}%</span> <span className="text-stone-500 dark:text-stone-400">({m.count})</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
