import { CalendarClock, Clock, Scissors, UserRound, Users } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useMe } from '@/lib/me'

const shortcuts = [
  { to: '/profile', label: 'Configurar Perfil', icon: UserRound },
  { to: '/professionals', label: 'Adicionar Profissional', icon: Users },
  { to: '/add-service', label: 'Adicionar Serviço', icon: Scissors },
  { to: '/configure-hours', label: 'Configurar Horários', icon: Clock },
]

export default function DashboardPage() {
  const { data: me } = useMe()
  const name = me?.name?.trim() || 'Usuário'
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Olá, {name}!</h1>
        <p className="mt-1 text-stone-600 dark:text-stone-400">Bem-vindo ao seu painel de agendamentos.</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <CalendarClock className="size-5 text-brand-700" aria-hidden /> Comece por aqui
          </CardTitle>
          <CardDescription>Configure seu perfil, equipe, serviços e horários para receber agendamentos pelo seu link.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
          {shortcuts.map(({ to, label, icon: Icon }) => (
            <Button key={to} asChild variant="outline" className="justify-start">
              <Link to={to}>
                <Icon aria-hidden /> {label}
              </Link>
            </Button>
          ))}
        </CardContent>
      </Card>
    </div>
  )
}
