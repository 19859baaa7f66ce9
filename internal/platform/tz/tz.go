// Package tz is the one place that turns a time-zone name into a location.
// Owners' zones are IANA names (profiles.BrazilTimeZones); an empty or
// unknown name falls back to Default, which is also the zone of texts sent
// before an account has one (Brasília time). The zone data is compiled into
// the binary, so the server never depends on the host's zoneinfo.
package tz

import (
	"sync"
	"time"
	_ "time/tzdata" // zone data compiled in, wherever this package is used
)

// Default is the zone of an owner who has not chosen one, and of Brasília time.
const Default = "America/Sao_Paulo"

var cache sync.Map // name → *time.Location: each zone is read once per process

// Load returns the named zone, or Default's when the name is empty or unknown.
func Load(name string) *time.Location {
	if l, ok := cache.Load(name); ok {
		return l.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	switch {
	case name == Default && err != nil:
		return time.FixedZone("BRT", -3*3600) // cannot happen with the compiled-in data
	case err != nil || name == "":
		return Load(Default) // not kept under the unknown name: the map stays bounded
	}
	cache.Store(name, loc)
	return loc
}
