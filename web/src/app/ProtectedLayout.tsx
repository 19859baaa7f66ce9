import { Bell, LogOut, Mail, Menu, MessageCircle, X } from 'lucide-react'
import { useState } from 'react'
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { Brand } from '@/components/brand'
import { ThemeToggle } from '@/components/theme-toggle'
import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/ui/spinner'
import { useAuth } from '@/lib/auth'
import { useNotifications } from '@/lib/api/endpoints/get-notifications'
import { useContacts, useDemo } from '@/lib/config'
import { whatsappLink } from '@/lib/whatsapp'
import { useLiveEvents } from '@/lib/live'
import { cn } from '@/lib/utils'

// The full bar shows from xl (1280 px): its nine entries do not fit beside the
// brand and the buttons at 1024 px; below, the menu button lists them.
const nav = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/agenda', label: 'Agenda' },
  { to: '/clients', label: 'Clientes' },
  { to: '/professionals', label: 'Profissionais' },
  { to: '/prontuarios', label: 'Prontuários' },
  { to: '/services', label: 'Serviços' },
  // Hours, breaks, days off, holidays and the booking rules: one screen, one name.
  { to: '/configure-hours', label: 'Horários e regras' },
  { to: '/reports', label: 'Relatórios' },
  { to: '/profile', label: 'Perfil' },
]

// A professional signed in as themself (issue 43) has their agenda and their clients; the rest is the owner's.
const teamNav = [
  { to: '/agenda', label: 'Agenda' },
  { to: '/clients', label: 'Clientes' },
  { to: '/prontuarios', label: 'Prontuários' },
]
const teamPaths = ['/agenda', '/appointment/', '/clients', '/prontuarios']

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-brand-100 text-brand-900 dark:bg-brand-900/50 dark:text-brand-100' : 'text-stone-700 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800',
  )

/** Frame of every signed-in page; visitors without a session go to /login. */
export default function ProtectedLayout() {
  const { status, logout, user } = useAuth()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const professional = user?.role === 'professional'
  const [open, setOpen] = useState(false)
  const { supportEmail, supportWhatsapp } = useContacts()
  const demo = useDemo()
  const signedIn = status === 'signed-in'
  // The agenda stays live for everyone; a professional's stream tells of their own agenda only (the server filters it).
  // The bell is the owner's: it tells of every professional's bookings.
  useLiveEvents(signedIn)
  const notes = useNotifications({ enabled: signedIn && !professional })
  const unread = notes.data?.unread ?? 0

  if (status === 'loading') return <PageSpinner />
  if (status === 'signed-out') return <Navigate to="/login" replace />
  if (professional && !teamPaths.some((p) => pathname.startsWith(p))) return <Navigate to="/agenda" replace />
  const links = professional ? teamNav : nav

  async function signOut() {
    setOpen(false)
    // Leave the protected area first, or the layout would redirect to /login.
    await navigate('/', { replace: true })
    await logout('global')
  }

  return (
    <div className="flex min-h-screen flex-col">
      {demo ? (
        // The demo's account has a public password: whoever serves this database should know.
        <p role="status" className="bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
          Banco de demonstração: não use em produção.
        </p>
      ) : null}
      <header className="sticky top-0 z-40 print:hidden border-b border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-4">
          <Brand to={professional ? '/agenda' : '/dashboard'} />
          <nav aria-label="Principal" className="hidden items-center gap-1 xl:flex">
            {links.map((n) => (
              <NavLink key={n.to} to={n.to} className={linkClass}>
                {n.label}
              </NavLink>
            ))}
          </nav>
          <div className="flex items-center gap-1">
            {professional ? null : (
              <Button asChild variant="ghost" size="icon" className="relative">
                <Link to="/notifications" aria-label={unread > 0 ? `Notificações (${unread > 99 ? '99+' : unread} não lidas)` : 'Notificações'}>
                  <Bell aria-hidden />
                  {unread > 0 ? (
                    <span aria-hidden data-testid="unread-badge" className="absolute -right-0.5 -top-0.5 flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-semibold text-white">
                      {unread > 99 ? '99+' : unread}
                    </span>
                  ) : null}
                </Link>
              </Button>
            )}
            <ThemeToggle />
            <Button variant="ghost" size="sm" onClick={signOut} className="hidden xl:inline-flex">
              <LogOut aria-hidden /> Sair
            </Button>
            <Button variant="ghost" size="icon" className="xl:hidden" aria-label={open ? 'Fechar menu' : 'Abrir menu'} aria-expanded={open} aria-controls="mobile-menu" onClick={() => setOpen((o) => !o)}>
              {open ? <X aria-hidden /> : <Menu aria-hidden />}
            </Button>
          </div>
        </div>
        {open ? (
          <nav id="mobile-menu" aria-label="Menu" className="border-t border-stone-200 px-4 py-3 xl:hidden dark:border-stone-800">
            <div className="grid gap-1">
              {links.map((n) => (
                <NavLink key={n.to} to={n.to} className={linkClass} onClick={() => setOpen(false)}>
                  {n.label}
                </NavLink>
              ))}
              <button type="button" onClick={signOut} className="flex items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-900/30">
                <LogOut className="size-4" aria-hidden /> Sair
              </button>
            </div>
          </nav>
        ) : null}
      </header>
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:py-8">
        <Outlet />
      </main>
      <footer className="border-t border-stone-200 py-6 text-sm print:hidden dark:border-stone-800">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 sm:flex-row">
          <p className="text-stone-600 dark:text-stone-400">Precisa de ajuda? Fale com o suporte.</p>
          <div className="flex gap-4">
            <a className="inline-flex items-center gap-1 hover:underline" href={`mailto:${supportEmail}`}>
              <Mail className="size-4" aria-hidden /> E-mail
            </a>
            <a className="inline-flex items-center gap-1 hover:underline" href={whatsappLink(supportWhatsapp, 'Olá! Preciso de ajuda com o Agendei.')} target="_blank" rel="noreferrer">
              <MessageCircle className="size-4" aria-hidden /> WhatsApp
            </a>
          </div>
        </div>
      </footer>
    </div>
  )
}
