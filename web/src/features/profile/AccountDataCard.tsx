import { Download } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { saveFile } from '@/lib/save-file'
import { useExportAccountData } from './api/account-data'

/** LGPD: the owner downloads what the account keeps about them and the practice. */
export function AccountDataCard() {
  const exporting = useExportAccountData()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Seus dados (LGPD)</CardTitle>
        <CardDescription>
          Uma cópia em JSON da sua conta e do seu consultório: perfil, equipe, serviços, horários, agendas conectadas e assinatura. Senhas e tokens não saem na
          cópia. Os dados dos clientes saem em Clientes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button
          variant="outline"
          disabled={exporting.isPending}
          onClick={() =>
            exporting.mutate(undefined, {
              onSuccess: saveFile,
              onError: (e) => toast.error('Erro', { description: e.message || 'Não foi possível exportar. Tente novamente.' }),
            })
          }
        >
          <Download aria-hidden />
          Baixar meus dados
        </Button>
      </CardContent>
    </Card>
  )
}
