import { Moon, Sun } from 'lucide-react'
import { useDarkMode } from '@/lib/theme'
import { Button } from './ui/button'

export function ThemeToggle() {
  const [dark, toggle] = useDarkMode()
  return (
    <Button variant="ghost" size="icon" onClick={toggle} aria-label="Alternar tema" aria-pressed={dark} title={dark ? 'Tema claro' : 'Tema escuro'}>
      {dark ? <Sun aria-hidden /> : <Moon aria-hidden />}
    </Button>
  )
}
