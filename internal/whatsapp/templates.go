package whatsapp

// Agendei's message templates, created in each owner's WhatsApp Business
// Account (Meta reviews them there; a template message goes out only once
// it is APPROVED). Names carry a version: a changed text is a new template,
// since Meta does not let an approved template's body change silently.
//
// Body parameters, in order: {{1}} the client's name, {{2}} the practice,
// {{3}} the service, {{4}} the date (pt-BR), {{5}} the time.

// Kinds of message.
const (
	KindConfirmation = "confirmation"
	KindReminder     = "reminder"
)

// Language is the templates' language code.
const Language = "pt_BR"

// The reminder's quick-reply buttons, by index; a tap comes back as a
// webhook with the payload Agendei put on that button.
const (
	ButtonConfirm    = "Confirmar"
	ButtonReschedule = "Remarcar"
	ButtonCancel     = "Cancelar"
)

var example = &TemplateExample{BodyText: [][]string{{"Ana", "Clínica Sorriso", "Limpeza", "quinta-feira, 26/11", "14:00"}}}

// ConfirmationTemplate is the booking confirmation.
func ConfirmationTemplate() NewTemplate {
	return NewTemplate{Name: "agendei_confirmacao_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
		{Type: "BODY", Text: "Olá, {{1}}! Seu agendamento com {{2}} está confirmado: {{3}} em {{4}} às {{5}}.", Example: example},
	}}
}

// ReminderTemplate is the reminder before an appointment, with the three
// one-tap answers.
func ReminderTemplate() NewTemplate {
	return NewTemplate{Name: "agendei_lembrete_v1", Language: Language, Category: "UTILITY", Components: []TemplateComponent{
		{Type: "BODY", Text: "Olá, {{1}}! Lembrete do seu horário com {{2}}: {{3}} em {{4}} às {{5}}. Você confirma presença?", Example: example},
		{Type: "BUTTONS", Buttons: []TemplateButton{{Type: "QUICK_REPLY", Text: ButtonConfirm}, {Type: "QUICK_REPLY", Text: ButtonReschedule}, {Type: "QUICK_REPLY", Text: ButtonCancel}}},
	}}
}

// TemplateFor is the template of a kind of message.
func TemplateFor(kind string) NewTemplate {
	if kind == KindReminder {
		return ReminderTemplate()
	}
	return ConfirmationTemplate()
}

// Kinds lists every kind, in the order the profile shows them.
var Kinds = []string{KindConfirmation, KindReminder}
