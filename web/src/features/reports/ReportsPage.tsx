import { useEffect, useState } from 'react'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import type { Schemas } from '@/lib/api/client'
import { useProfessionals } from '@/lib/api/endpoints/get-professionals'
import { useServices } from '@/lib/api/endpoints/get-services'
import { brDate, formatBRL, statusLabel } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useReports } from './api/get-reports'

type Report = Schemas['Report']

const tabs = ['Visão Geral', 'Agendamentos', 'Faturamento', 'Futuros'] as const
const monthShort = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez']

export default function ReportsPage() {
  const [tab, setTab] = useState<(typeof tabs)[number]>('Visão Geral')
  const [professional, setProfessional] = useState('')
  const [service, setService] = useState('')
  const team = useProfessionals()
  const services = useServices()
  const { data, isLoading, isError } = useReports({ ...(professional ? { professional } : {}), ...(service ? { service } : {}) })
  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Erro ao carregar dados dos relatórios.' })
  }, [isError])

  const select = 'h-10 rounded-lg border border-stone-300 bg-white px-3 text-sm dark:border-stone-700 dark:bg-stone-900'
  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <BackLink />
      <h1 className="text-2xl font-bold tracking-tight">Relatórios</h1>
      <div className="grid gap-3 sm:grid-cols-2">
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

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <CardContent className="pt-5">
        <p className="text-sm text-stone-600 dark:text-stone-400">{label}</p>
        <p className="mt-1 text-2xl font-bold">{value}</p>
      </CardContent>
    </Card>
  )
}

function Overview({ r }: { r: Report }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Stat label="Total de agendamentos" value={String(r.overview.totalAppointments)} />
      <Stat label="Receita total" value={formatBRL(r.overview.revenueCents)} />
      <Stat label="Clientes únicos" value={String(r.overview.uniqueClients)} />
      <Stat label="Ticket médio" value={formatBRL(r.overview.averageTicketCents)} />
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
  const data = r.monthlyRevenue.map((m) => ({ mes: `${monthShort[Number(m.month.slice(5)) - 1]}/${m.month.slice(2, 4)}`, valor: m.revenueCents / 100 }))
  return (
    <Card>
      <CardHeader>
        <CardTitle>Faturamento dos últimos 6 meses</CardTitle>
      </CardHeader>
      <CardContent>
        <div className="h-72" role="img" aria-label={`Faturamento mensal: ${r.monthlyRevenue.map((m) => `${m.month} ${formatBRL(m.revenueCents)}`).join(', ')}`}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={data}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="mes" />
              <YAxis tickFormatter={(v: number) => `R$ ${v}`} width={80} />
              <Tooltip formatter={(v: number) => formatBRL(Math.round(v * 100))} />
              <Bar dataKey="valor" name="Faturamento" fill="#0f766e" radius={[6, 6, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <ul className="mt-4 grid grid-cols-3 gap-2 text-sm sm:grid-cols-6">
          {r.monthlyRevenue.map((m) => (
            <li key={m.month}>
              <span className="block text-stone-500 dark:text-stone-400">{m.month.slice(5)}/{m.month.slice(0, 4)}</span>
              <span className="font-semibold">{formatBRL(m.revenueCents)}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function Future({ r }: { r: Report }) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <Stat label="Agendamentos futuros" value={String(r.futureCount)} />
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
          <table className="w-full text-left">
            <caption className="sr-only">Faltas por profissional</caption>
            <thead className="text-stone-600 dark:text-stone-400">
              <tr>
                <th className="py-1 font-medium">Profissional</th>
                <th className="py-1 font-medium">Faltas</th>
                <th className="py-1 font-medium">Taxa</th>
              </tr>
            </thead>
            <tbody>
              {n.byProfessional.map((g) => (
                <tr key={g.name}>
                  <td className="py-1">{g.name}</td>
                  <td className="py-1">
                    {g.count} de {g.due}
                  </td>
                  <td className="py-1 font-semibold">{g.rate}%</td>
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
