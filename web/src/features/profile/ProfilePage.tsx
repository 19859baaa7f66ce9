import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useMe } from '@/lib/me'
import { DeleteAccountDialog } from './DeleteAccountDialog'

export default function ProfilePage() {
  const { data: me } = useMe()
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <Link to="/dashboard" className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline dark:text-brand-200">
        <ArrowLeft className="size-4" aria-hidden /> Voltar ao painel
      </Link>
      <h1 className="text-2xl font-bold tracking-tight">Perfil</h1>
      <Card>
        <CardHeader>
          <CardTitle>Informações básicas</CardTitle>
          <CardDescription>{me ? `${me.name} · ${me.email}` : 'Carregando...'}</CardDescription>
        </CardHeader>
      </Card>
      <Card className="border-red-300 dark:border-red-900">
        <CardHeader>
          <CardTitle className="text-red-700 dark:text-red-300">Zona de Perigo</CardTitle>
          <CardDescription>Excluir sua conta remove permanentemente todos os seus dados.</CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteAccountDialog />
        </CardContent>
      </Card>
    </div>
  )
}
