package config

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/go-playground/validator/v10"
)

// rules checks the validate tags of a Config, naming each field by its
// variable.
var rules = func() *validator.Validate {
	v := validator.New()
	v.RegisterTagNameFunc(func(f reflect.StructField) string { return f.Tag.Get("env") })
	return v
}()

// check reports every value that breaks its rule, one error per variable.
func check(c Config) error {
	err := rules.Struct(c)
	var ve validator.ValidationErrors
	if !errors.As(err, &ve) {
		return err
	}
	problems := make([]error, 0, len(ve))
	for _, fe := range ve {
		problems = append(problems, fmt.Errorf("reading the configuration: %s=%v: %s", fe.Field(), fe.Value(), ruleText(fe)))
	}
	return errors.Join(problems...)
}

// ruleText says a broken rule in words.
func ruleText(fe validator.FieldError) string {
	switch fe.Tag() {
	case "gt":
		return "must be above " + fe.Param()
	case "gte":
		return "must be at least " + fe.Param()
	case "min":
		return "must be at least " + fe.Param() + " bytes long"
	case "eq=0|gte=2":
		return "must be at least 2 (or unset)"
	case "http_url":
		return "must be origins, such as http://localhost:3000"
	case "url":
		return "must be a URL"
	case "lte":
		return "must be at most " + fe.Param()
	case "oneof":
		return "must be one of " + fe.Param()
	case "required_with":
		return "must be set with TRIPGRAPH_JWT_ISSUER"
	}
	return "breaks the rule " + fe.Tag()
}
