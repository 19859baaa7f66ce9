package agenda

import (
	"encoding/json"
	"testing"

	"github.com/agendei/agendei/internal/schedule"
)

// The grid's head, written by hand, is byte for byte what encoding/json
// writes for the Grid: names that need escaping (quotes, HTML's <>&, a
// line break, accents, a bad UTF-8 byte), closed and empty columns, nil
// and empty lists, blocks and deposits.
func TestGridHead_IsWhatEncodingJSONWrites(t *testing.T) {
	pro := "p1"
	grids := []*Grid{
		{},
		{Blocks: []schedule.Block{}, Deposits: []GridDeposit{}, Professionals: []GridProfessional{}, Days: []GridDay{}},
		{
			Today: "2026-11-26", Now: "09:05",
			Professionals: []GridProfessional{
				{ID: "p1", Name: `Ana "Aninha" <Souza> & Cia`, Active: true},
				{ID: "p2", Name: "João\nda Conceição\x00 \xff", Active: false},
				{ID: "p3", Name: "Clínica A&B <Centro>", Active: true},
				{ID: "p4", Name: "Bia <b>", Active: true},
				{ID: "", Name: noProfessional},
			},
			Days: []GridDay{
				{Date: "2026-11-26", Columns: []GridColumn{
					{ProfessionalID: "p1", Windows: []schedule.Window{{Start: "08:00", End: "12:00"}, {Start: "13:00", End: "18:00"}}, Label: "Aberto"},
					{ProfessionalID: "p2", Windows: []schedule.Window{}, Closed: schedule.ClosedDayOff, Label: "Folga — férias"},
					{ProfessionalID: "", Windows: nil, Closed: schedule.ClosedHoliday, Label: "Feriado: Dia da Consciência Negra"},
				}},
				{Date: "2026-11-27", Columns: nil},
				{Date: "2026-11-28", Columns: []GridColumn{}},
			},
			Blocks: []schedule.Block{
				{ID: "b1", ProfessionalID: &pro, ProfessionalName: "Ana", Date: "2026-11-26", Start: "13:00", End: "18:00", Reason: "Congresso <SP>", Kept: []string{"a1"}},
				{ID: "b2", Date: "2026-11-26", Start: "08:00", End: "09:00", Kept: []string{}},
			},
			Deposits: []GridDeposit{{AppointmentID: "a1", State: "paid"}},
		},
	}
	for i, g := range grids {
		got, err := g.appendHead(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want[:len(want)-1], `,"appointments":[`...)
		if string(got) != string(want) {
			t.Errorf("grid %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
