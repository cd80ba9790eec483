package lecture

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
)

// writeJSON sends body as JSON.
func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// readBody reads at most MaxBody bytes; a longer body is refused whole.
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxBody {
		return nil, errorf(http.StatusRequestEntityTooLarge, "request body over %d bytes", MaxBody)
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "could not read request body")
	}
	if len(b) > MaxBody {
		return nil, errorf(http.StatusRequestEntityTooLarge, "request body over %d bytes", MaxBody)
	}
	return b, nil
}

// decode reads the body as exactly one JSON value into v, refusing unknown
// fields. Its messages never quote the body: encoding/json's own errors
// can contain the offending value (for example "cannot unmarshal number
// 2.5"), which may be a student's private answer.
func decode(r *http.Request, v any, allowEmpty bool) error {
	b, err := readBody(r)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		if allowEmpty {
			return nil
		}
		return errorf(http.StatusBadRequest, "request body must be a JSON object")
	}
	if err := exactKeys(b, v); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return errorf(http.StatusBadRequest, "malformed JSON at byte %d", syn.Offset)
		case errors.As(err, &typ):
			if typ.Field == "" {
				return errorf(http.StatusBadRequest, "request body must be a JSON object")
			}
			return errorf(http.StatusBadRequest, "field %q has the wrong type (want %s)", typ.Field, typ.Type)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return errorf(http.StatusBadRequest, "malformed JSON: unexpected end")
		default:
			// DisallowUnknownFields reports `json: unknown field "name"`;
			// the name is the client's text, so it is not repeated.
			return errorf(http.StatusBadRequest, "malformed JSON or unknown field (see the API documentation for the allowed fields)")
		}
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, "malformed JSON: more than one value in the body")
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); err != io.EOF {
		return errorf(http.StatusBadRequest, "malformed JSON: trailing data after the object")
	}
	return nil
}

// exactKeys refuses a body whose objects repeat a key, or whose top-level
// object has a key that only matches a field of v when case is ignored:
// encoding/json matches keys without regard to case and lets a repeated key
// silently win, so {"epsilon": 0.1, "EPSILON": 3} would release ε = 3 where
// a reader of the body saw 0.1. A body that is not valid JSON passes, for
// the decoder to refuse with its own message.
func exactKeys(b []byte, v any) error {
	names := jsonNames(reflect.TypeOf(v))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // the next token of an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return nil
				}
				stack[len(stack)-1].key = true
				continue
			}
			k, _ := tok.(string)
			if top.keys[k] {
				return errorf(http.StatusBadRequest, "malformed JSON: a key is repeated")
			}
			top.keys[k] = true
			if len(stack) == 1 && names != nil && !names[k] {
				for n := range names {
					if strings.EqualFold(n, k) {
						return errorf(http.StatusBadRequest, "malformed JSON: a key differs from its field's name in case (see the API documentation)")
					}
				}
			}
			top.key = false
			continue
		}
		switch d, _ := tok.(json.Delim); d {
		case '{':
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, key: true})
			continue
		case '[':
			stack = append(stack, &frame{})
			continue
		case '}', ']':
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return nil
			}
		}
		// A value ended: in an object, a key comes next.
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].key = true
		}
		if len(stack) == 0 {
			return nil
		}
	}
}

// jsonNames lists the JSON keys of a struct type (through a pointer), or
// nil for any other type.
func jsonNames(t reflect.Type) map[string]bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	names := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names[name] = true
	}
	return names
}
