-- +goose Up
-- Issue 43 §4: sessions paid month by month. An attended appointment is
-- "Pago" when the owner marked it so (paid_at, paid_by: when and by which
-- account) or when a received deposit covers its whole price; otherwise
-- it is "A receber" (internal/payments computes both from these columns
-- and the deposit). Two plain columns rather than a payments table: one
-- state per appointment, and the appointments' version trigger (any
-- UPDATE) already bumps the owner's data version, so the client history's
-- cached answer follows. The grid, busy-days and write-back triggers list
-- their own columns (UPDATE OF …) and do not fire for these.
ALTER TABLE appointments ADD COLUMN paid_at TIMESTAMP;
ALTER TABLE appointments ADD COLUMN paid_by TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE appointments DROP COLUMN paid_by;
ALTER TABLE appointments DROP COLUMN paid_at;
