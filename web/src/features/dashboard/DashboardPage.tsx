import { Fragment, useEffect } from 'react'
import { CalendarDays, CheckCircle2, Circle, Clock, Copy, DollarSign, ExternalLink, Link2, Scissors, Sparkles, UserRound, Users } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import type { Schemas } from '@/lib/api/client'
import { useMe } from '@/lib/api/endpoints/get-me'
import { useSetupStatus } from '@/lib/api/endpoints/get-setup-status'
import { failure, useCalendars, writeFailure } from '@/lib/api/endpoints/calendars'
import { useReminderReach } from '@/lib/api/endpoints/get-reminder-reach'
import { useSubscription } from '@/lib/api/endpoints/get-subscription'
import { formatInstant } from '@/lib/dates'
import { Badge } from '@/components/ui/badge'
import { formatBRL } from '@/lib/format'
import { Avatar } from '@/components/ui/avatar'
import { CancelSubscription } from '@/components/cancel-subscription'
import { WhatsAppMessages } from '@/components/whatsapp-messages'
import { AnswerBadge } from '@/components/answer-badge'
import { StatusBadge } from '@/components/status-badge'
import { useDashboard } from './api/get-dashboard'
import { PendingDeposits } from './PendingDeposits'
import { ClientLink } from '@/components/client-link'
import { copyText } from '@/lib/clipboard'

type Dashboard = Schemas['Dashboard']
type SetupStatus = Schemas['SetupStatus']

export default function DashboardPage() {
  const { data: me } = useMe()
  const { data: setup, isLoading } = useSetupStatus()
  const subscription = useSubscription()
  const name = me?.name?.trim() || 'Usuário'
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Olá, {name}!</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">Bem-vindo ao seu painel de agendamentos.</p>
      </div>
      {isLoading || !setup ? (
        <Skeleton className="h-48" />
      ) : !setup.complete ? (
        <SetupChecklist setup={setup} />
      ) : (
        <>
          {subscription.data?.subscribed ? null : <TrialBanner trial={setup.trial} />}
          <CalendarWarning />
          <BookingLinkCard username={setup.publicUsername} />
          <DayOverview />
          <QuickActions />
          <SubscriptionCard />
        </>
      )}
    </div>
  )
}

const checklist = [
  { key: 'profile', label: 'Informações básicas do perfil (nome, área e nome de usuário)', action: 'Configurar Perfil', to: '/profile', icon: UserRound },
  { key: 'professional', label: 'Pelo menos um profissional', action: 'Adicionar Profissional', to: '/professionals', icon: Users },
  { key: 'service', label: 'Pelo menos um serviço', action: 'Adicionar Serviço', to: '/add-service', icon: Scissors },
  { key: 'availability', label: 'Horários de atendimento configurados', action: 'Configurar Horários', to: '/configure-hours', icon: Clock },
] as const

function SetupChecklist({ setup }: { setup: SetupStatus }) {
  const done = checklist.filter((c) => setup.items[c.key]).length
  return (
    <Card>
      <CardHeader>
        <CardTitle>Complete sua configuração</CardTitle>
        <CardDescription>
          {done} de 4 etapas concluídas. Depois disso, seu link de agendamento fica pronto para compartilhar.{' '}
          <Link to="/onboarding" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
            Usar a configuração guiada
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          {checklist.map(({ key, label, action, to, icon: Icon }) => {
            const ok = setup.items[key]
            return (
              <li key={key} className="flex flex-col gap-2 rounded-xl border border-stone-200 p-3 sm:flex-row sm:items-center sm:justify-between dark:border-stone-800">
                <span className="flex items-center gap-2 text-sm">
                  {ok ? <CheckCircle2 className="size-5 text-green-600" aria-label="Concluído" /> : <Circle className="size-5 text-stone-400" aria-label="Pendente" />}
                  {label}
                </span>
                {!ok ? (
                  <Button asChild size="sm" variant="outline">
                    <Link to={to}>
                      <Icon aria-hidden /> {action}
                    </Link>
                  </Button>
                ) : null}
              </li>
            )
          })}
        </ul>
      </CardContent>
    </Card>
  )
}

/**
 * A professional's own calendar that could not be read (its busy times may be out of date) or written (an
 * appointment may be missing there) (issue 42).
 */
function CalendarWarning() {
  const { data } = useCalendars()
  const failing = (data ?? []).filter((c) => c.lastError !== '' || c.writeError)
  if (failing.length === 0) return null
  return (
    <div role="status" className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-amber-800 dark:bg-amber-950/40">
      <div className="grid gap-1 text-sm text-amber-950 dark:text-amber-100">
        <p className="font-semibold">Agenda pessoal com problema</p>
        {failing.map((c) => (
          <Fragment key={`${c.professionalId}-${c.kind}`}>
            {c.lastError !== '' ? (
              <p>
                {c.professionalName}: {failure(c)}.{' '}
                {c.kept ? 'Os últimos horários ocupados valem por até 24 horas.' : 'Os horários ocupados dela não estão sendo considerados.'}
              </p>
            ) : null}
            {c.writeError ? (
              <p>
                {c.professionalName}: {writeFailure(c)}. Seguimos tentando; enquanto isso, os agendamentos podem não aparecer lá.
              </p>
            ) : null}
          </Fragment>
        ))}
      </div>
      <Button asChild variant="outline">
        <Link to="/profile">Ver agendas</Link>
      </Button>
    </div>
  )
}

function TrialBanner({ trial }: { trial: SetupStatus['trial'] }) {
  if (trial.expired) {
    return (
      <div role="status" className="flex flex-col gap-3 rounded-2xl border border-red-300 bg-red-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-red-900 dark:bg-red-950/40">
        <p className="font-medium text-red-900 dark:text-red-100">Seu teste gratuito de 7 dias expirou</p>
        <Button asChild>
          <Link to="/subscribe">Assinar agora</Link>
        </Button>
      </div>
    )
  }
  if (!trial.inTrial) return null
  const days = trial.daysRemaining
  return (
    <div role="status" className="flex flex-col gap-3 rounded-2xl border border-brand-200 bg-brand-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-brand-800 dark:bg-brand-900/30">
      <div className="flex items-center gap-3">
        <Sparkles className="size-5 text-brand-700 dark:text-brand-200" aria-hidden />
        <div>
          <p className="font-semibold text-brand-900 dark:text-brand-100">Teste Gratuito de 7 Dias Ativo</p>
          <p className="text-sm text-brand-800 dark:text-brand-200">{days === 1 ? 'Último dia' : `${days} dias restantes`}</p>
        </div>
      </div>
      {days <= 3 ? (
        <Button asChild>
          <Link to="/subscribe">Assinar Premium</Link>
        </Button>
      ) : null}
    </div>
  )
}

function BookingLinkCard({ username }: { username: string | null }) {
  if (!username) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Link Público</CardTitle>
          <CardDescription>
            Defina um nome de usuário público no seu{' '}
            <Link to="/profile" className="font-medium text-brand-700 hover:underline dark:text-brand-200">
              perfil
            </Link>{' '}
            para ter seu link de agendamento.
          </CardDescription>
        </CardHeader>
      </Card>
    )
  }
  const url = `${window.location.origin}/agende/${username}`
  const copy = () => copyText(url, 'Link copiado!', 'Erro ao copiar', 'Não foi possível copiar o link. Tente novamente.')
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Link2 className="size-5 text-brand-700" aria-hidden /> Seu link de agendamento
        </CardTitle>
        <CardDescription>Compartilhe com seus clientes: eles agendam a qualquer hora, sem criar conta.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="booking-link" className="sr-only">
          Link de agendamento
        </label>
        <Input id="booking-link" readOnly value={url} onFocus={(e) => e.target.select()} />
        <div className="flex gap-2">
          <Button variant="outline" onClick={copy}>
            <Copy aria-hidden /> Copiar
          </Button>
          <Button asChild variant="outline">
            <a href={url} target="_blank" rel="noreferrer">
              <ExternalLink aria-hidden /> Abrir
            </a>
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}

function DayOverview() {
  // Load errors are only logged, as the spec's dashboard did.
  const { data, isLoading, error } = useDashboard()
  useEffect(() => {
    if (error) console.error('dashboard', error)
  }, [error])
  if (isLoading) return <Skeleton className="h-40" />
  if (!data) return null
  return (
    <>
      <Metrics metrics={data.metrics} />
      <PendingDeposits />
      <TodayList today={data.today} />
      <TomorrowReminders unanswered={data.unanswered ?? []} />
    </>
  )
}

function Metrics({ metrics }: { metrics: Dashboard['metrics'] }) {
  const cards = [
    { label: 'Total de agendamentos', value: String(metrics.total), hint: 'Últimos 7 dias e próximos', icon: CalendarDays },
    { label: 'Confirmados', value: String(metrics.confirmed), hint: `${metrics.confirmationRate}% de confirmação`, icon: CheckCircle2 },
    { label: 'Receita estimada', value: formatBRL(metrics.revenueCents), hint: 'Soma dos serviços agendados, sem os que aguardam sinal', icon: DollarSign },
    // SPEC counts unique clients by e-mail; the clients page groups by phone, else e-mail — the hint says which this is (issue 39).
    { label: 'Clientes únicos', value: String(metrics.uniqueClients), hint: 'E-mails distintos (quem não tem e-mail não conta)', icon: Users },
  ]
  return (
    <section aria-label="Métricas" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map(({ label, value, hint, icon: Icon }) => (
        <Card key={label}>
          <CardContent className="pt-5">
            <div className="flex items-center justify-between text-sm text-stone-600 dark:text-stone-400">
              {label} <Icon className="size-4" aria-hidden />
            </div>
            <div className="mt-2 text-2xl font-bold">{value}</div>
            <p className="text-xs text-stone-500 dark:text-stone-400">{hint}</p>
          </CardContent>
        </Card>
      ))}
    </section>
  )
}

function TodayList({ today }: { today: Dashboard['today'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Agendamentos de hoje</CardTitle>
      </CardHeader>
      <CardContent>
        {today.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">Nenhum agendamento para hoje</p>
        ) : (
          <ul className="grid gap-2">
            {today.map((a) => (
              <li key={a.id} className="flex items-center gap-3 rounded-xl border border-stone-200 p-3 dark:border-stone-800">
                <Avatar name={a.clientName} size="sm" />
                {/* The name opens the client; the service and time open the appointment. */}
                <span className="min-w-0 flex-1">
                  <ClientLink appointment={a} className="block truncate font-medium" />
                  {/* The time first and never cut; a long service name truncates instead. */}
                  <Link to={`/appointment/${a.id}`} className="flex min-w-0 gap-1 text-sm text-stone-600 hover:underline dark:text-stone-400">
                    <span className="shrink-0 font-medium text-stone-900 tabular-nums dark:text-stone-100">{a.time}</span>
                    <span aria-hidden>·</span>
                    <span className="min-w-0 truncate">{a.serviceName}</span>
                  </Link>
                  {a.status === 'confirmed' ? <AnswerBadge answer={a.answer} /> : null}
                </span>
                <StatusBadge status={a.status} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

/** Tomorrow's appointments whose client has not answered a reminder, each with a one-tap WhatsApp nudge. */
function TomorrowReminders({ unanswered }: { unanswered: Dashboard['unanswered'] }) {
  const { data: reach } = useReminderReach()
  const unreached = new Set(reach?.unreached.map((g) => g.appointmentId))
  // Those no automatic reminder reaches first: the owner's tap is all they get.
  const list = unanswered.filter((a) => a.clientPhone).sort((a, b) => Number(unreached.has(b.id)) - Number(unreached.has(a.id)))
  if (list.length === 0) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle>Amanhã, sem resposta</CardTitle>
        <CardDescription>Clientes que ainda não confirmaram: envie o lembrete pelo WhatsApp com um toque, a mensagem já vem escrita.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2" aria-label="Lembretes de amanhã">
          {list.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-stone-200 p-3 dark:border-stone-800">
              <span className="min-w-0">
                <span className="block truncate font-medium">
                  {a.time} · <ClientLink appointment={a} />
                </span>
                <span className="block truncate text-sm text-stone-600 dark:text-stone-400">
                  {a.serviceName} · {a.professionalName}
                </span>
                <span className="flex flex-wrap gap-1">
                  <AnswerBadge answer={a.answer} />
                  {unreached.has(a.id) ? <Badge tone="warning">sem lembrete automático</Badge> : null}
                </span>
              </span>
              <WhatsAppMessages appointment={a} kinds={['reminder']} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function SubscriptionCard() {
  const { data, isLoading } = useSubscription()
  if (isLoading || !data) return <Skeleton className="h-36" />
  if (!data.subscribed) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Recursos Premium</CardTitle>
          <CardDescription>Agendamentos ilimitados, página personalizada, gestão de clientes e relatórios.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild>
            <Link to="/subscribe">Assinar Premium - R$ 21,90/mês</Link>
          </Button>
        </CardContent>
      </Card>
    )
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Minha Assinatura <Badge tone="success">Ativo</Badge>
        </CardTitle>
        <CardDescription>
          Plano {data.subscriptionTier} · R$ 21,90/mês
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm">
          {data.cancelAtPeriodEnd ? 'Acesso até ' : 'Válido até '}
          <strong>{data.subscriptionEnd ? formatInstant(data.subscriptionEnd) : '-'}</strong>
          {data.cancelAtPeriodEnd ? ' (renovação cancelada)' : ''}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to="/subscribe?manage=1">Gerenciar assinatura</Link>
          </Button>
          {data.cancelAtPeriodEnd ? null : <CancelSubscription />}
        </div>
      </CardContent>
    </Card>
  )
}

function QuickActions() {
  const actions = [
    { to: '/add-service', label: 'Adicionar serviço', icon: Scissors },
    { to: '/professionals', label: 'Gerenciar profissionais', icon: Users },
    { to: '/configure-hours', label: 'Configurar horários', icon: Clock },
    { to: '/profile', label: 'Editar perfil', icon: UserRound },
  ]
  return (
    <Card>
      <CardHeader>
        <CardTitle>Ações rápidas</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        {actions.map(({ to, label, icon: Icon }) => (
          <Button key={to} asChild variant="outline" className="justify-start">
            <Link to={to}>
              <Icon aria-hidden /> {label}
            </Link>
          </Button>
        ))}
      </CardContent>
    </Card>
  )
}
