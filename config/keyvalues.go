package config

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// KeyValues are key=value pairs separated by commas, values URL-encoded,
// as OpenTelemetry's variables write headers and resource attributes.
type KeyValues map[string]string

// UnmarshalText reads the pairs. A pair without "=" or with an empty key is
// refused; the error names the key only, as a value may be a secret.
func (kv *KeyValues) UnmarshalText(text []byte) error {
	out := KeyValues{}
	for _, pair := range strings.Split(string(text), ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return fmt.Errorf("want key=value pairs separated by commas, got a pair without a key or %q", "=")
		}
		value, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("the value of %s is not URL-encoded: %w", k, err)
		}
		out[k] = value
	}
	*kv = out
	return nil
}

// String writes the keys only, sorted: values may be secrets.
func (kv KeyValues) String() string {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}
