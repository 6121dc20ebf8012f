package cli

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/zklocks/zklocks/lockcore"
	"gopkg.in/yaml.v3"
)

// recipeList is the config file's recipes: rule book entries (see
// docs/rulebook.md), globally and per context:
//
//	recipes:
//	  - name: acme-rw
//	    paths: [/acme/locks/*]
//	    children: "{owner}.{mode}.{seq}"
//	    modes: {R: read, W: write}
//	    grant: read-write
//
// It is read field by field so that an error names the entry (its place,
// name and line) and the field.
type recipeList []lockcore.Entry

// recipeFields are the keys an entry may have, from lockcore.Entry's tags.
var recipeFields = func() []string {
	var out []string
	t := reflect.TypeFor[lockcore.Entry]()
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}()

// UnmarshalYAML reads the list, refusing unknown and repeated fields.
func (r *recipeList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: recipes must be a list of entries", n.Line)
	}
	out := make(recipeList, 0, len(n.Content))
	for i, item := range n.Content {
		at := fmt.Sprintf("recipe %d (line %d)", i+1, item.Line)
		if item.Kind != yaml.MappingNode {
			return fmt.Errorf("%s: an entry is a mapping of fields (name, paths, children, …)", at)
		}
		seen := map[string]bool{}
		for k := 0; k+1 < len(item.Content); k += 2 {
			key := item.Content[k].Value
			if key == "name" && item.Content[k+1].Kind == yaml.ScalarNode {
				at = fmt.Sprintf("recipe %d (%q, line %d)", i+1, item.Content[k+1].Value, item.Line)
			}
			switch {
			case !slices.Contains(recipeFields, key):
				return fmt.Errorf("%s: %s (line %d): no such field (the fields are %s)", at, key, item.Content[k].Line, strings.Join(recipeFields, ", "))
			case seen[key]:
				return fmt.Errorf("%s: %s (line %d): given twice", at, key, item.Content[k].Line)
			}
			seen[key] = true
		}
		var e lockcore.Entry
		if err := item.Decode(&e); err != nil {
			return fmt.Errorf("%s: %s", at, strings.TrimPrefix(yamlError(err), "yaml: "))
		}
		e.Source = fmt.Sprintf("line %d", item.Line)
		out = append(out, e)
	}
	*r = out
	return nil
}

// yamlError flattens yaml's multi-line type errors.
func yamlError(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return strings.Join(te.Errors, "; ")
	}
	return err.Error()
}

// checkRecipes checks every recipe list in the file, each as a book of its
// own and the global one with each context's (which it joins): any bad
// entry refuses the whole file.
func (cf *configFile) checkRecipes() error {
	for i := range cf.Recipes {
		cf.Recipes[i].Source = cf.path + ", recipes, " + cf.Recipes[i].Source
	}
	if _, err := lockcore.NewBook(cf.Recipes); err != nil {
		return fmt.Errorf("config %s: recipes: %w", cf.path, err)
	}
	for _, name := range cf.names() {
		c := cf.Contexts[name]
		for i := range c.Recipes {
			c.Recipes[i].Source = fmt.Sprintf("%s, context %s, recipes, %s", cf.path, name, c.Recipes[i].Source)
		}
		if _, err := lockcore.NewBook(c.Recipes); err != nil {
			return fmt.Errorf("config %s: context %q: recipes: %w", cf.path, name, err)
		}
		if _, err := cf.book(name); err != nil {
			return fmt.Errorf("config %s: context %q: recipes with the global ones: %w", cf.path, name, err)
		}
	}
	return nil
}

// book is the rule book in force on the named context ("" for none): the
// context's entries, then the global ones it does not replace (an entry
// of the same name in the context replaces the global one), then the
// built-in ones.
func (cf *configFile) book(context string) (*lockcore.Book, error) {
	var entries []lockcore.Entry
	var own []string
	if c, ok := cf.Contexts[context]; ok && context != "" {
		entries = append(entries, c.Recipes...)
		for _, e := range c.Recipes {
			own = append(own, e.Name)
		}
	}
	for _, e := range cf.Recipes {
		if !slices.Contains(own, e.Name) {
			entries = append(entries, e)
		}
	}
	return lockcore.NewBook(entries)
}

// viewRecipes lists, for config view, the names of the user's rule book
// entries in force, each with where it comes from.
func (s settings) viewRecipes(doc *yaml.Node) {
	entries := s.book.Entries()[:s.book.UserEntries()]
	if len(entries) == 0 {
		put(doc, "recipes", &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}, "none of your own (zklocks recipes lists the built-in ones)")
		return
	}
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, e := range entries {
		n := str(e.Name)
		n.LineComment = e.Source
		list.Content = append(list.Content, n)
	}
	put(doc, "recipes", list, "zklocks recipes shows them whole")
}
