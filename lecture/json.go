package lecture

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

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
