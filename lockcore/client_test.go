package lockcore

import "testing"

// A kazoo semaphore whose lease names happen to end in ten decimal digits
// (about one uuid4 hex in 110) is still a kazoo semaphore: a new acquirer
// joins it instead of refusing the parent as unknown.
func TestDetectRecipeKazooLeasesEndingInDigits(t *testing.T) {
	self := Node{Name: "kazoo", Data: []byte("2")}
	leases := []string{"dc5f4ec9299641deaa35709612198573", "a9255a459afc43598e24cef45cad840f"}
	got, err := DetectRecipe(self, leases, ModeLease)
	if err != nil || got != RecipeKazooSemaphore {
		t.Fatalf("DetectRecipe = %s, %v; want %s", got, err, RecipeKazooSemaphore)
	}
}
