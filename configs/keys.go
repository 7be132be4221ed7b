package configs

import (
	"reflect"
	"sort"
	"strings"
)

// Keys returns every configuration key ("scoring.tau"), sorted: the leaves
// of Config by their mapstructure names. A map's key ends in ".*" (any name
// under it is one: web.thresholds.*); a list is one key (scoring.pairs).
// `kgeval config --keys` prints them for the Python package, which names
// the nearest one for a key it does not know.
func Keys() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
			if name == "-" || name == "" || !f.IsExported() {
				continue
			}
			key := prefix + name
			switch ft := f.Type; {
			case ft.Kind() == reflect.Struct && ft.String() != "time.Duration":
				walk(ft, key+".")
			case ft.Kind() == reflect.Map:
				out = append(out, key+".*")
			default:
				out = append(out, key)
			}
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	sort.Strings(out)
	return out
}
