package shop

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbharness/ddbharness/designs"
)

// maxEmailLen is the longest email an address may have (RFC 5321 path
// limit); it keeps EmailKey far below DynamoDB's 1,024-byte sort key.
const maxEmailLen = 254

// GetUser is AP-01 (main table, GetItem): PK USER, SK USER#<id>. Unknown
// user: designs.ErrNotFound.
func (t Table) GetUser(ctx context.Context, id string) (User, error) {
	return getItem[User](ctx, t, GetUserID, UsersPK, UserSK(id))
}

// GetUserByEmail is AP-02 (LSI1, Query): PK USER and SKU EMAIL#<email>, the
// email matched without regard to case. CreateUser keeps emails unique, so
// at most one user matches. Unknown email: designs.ErrNotFound.
func (t Table) GetUserByEmail(ctx context.Context, email string) (User, error) {
	key := expression.Key(Schema.PK).Equal(expression.Value(UsersPK)).
		And(expression.Key(Schema.LSIs[0].SK).Equal(expression.Value(EmailKey(email))))
	page, err := queryPage[User](ctx, t, GetUserByEmailID, designs.PageQuery{Index: LSI1, Key: key, Size: 1})
	if err != nil {
		return User{}, err
	}
	if len(page.Items) == 0 {
		return User{}, fmt.Errorf("%s: email %s: %w", GetUserByEmailID, email, designs.ErrNotFound)
	}
	return page.Items[0], nil
}

// ListUsers is AP-03 (main table, Query): the USER partition, oldest user
// first (user IDs are KSUIDs), size users a page.
func (t Table) ListUsers(ctx context.Context, size int, after designs.Cursor) (Page[User], error) {
	key := partition(Schema.PK, UsersPK, Schema.SK, userPrefix)
	return queryPage[User](ctx, t, ListUsersID, designs.PageQuery{Key: key, Size: size, After: after})
}

// ListUsersCreatedSince is AP-04 (main table, Query): users created at or
// after since, oldest first, as SK >= USER#<smallest KSUID of since's
// second>. The USER partition holds only users, so no upper bound is needed.
func (t Table) ListUsersCreatedSince(ctx context.Context, since time.Time, size int, after designs.Cursor) (Page[User], error) {
	if !keyTime(since) {
		return Page[User]{}, fmt.Errorf("%s: since: %w: want a time between 1970 and 2286", ListUsersCreatedSinceID, designs.ErrInvalidInput)
	}
	key := expression.Key(Schema.PK).Equal(expression.Value(UsersPK)).
		And(expression.Key(Schema.SK).GreaterThanEqual(expression.Value(UserSK(designs.MinIDAt(since)))))
	return queryPage[User](ctx, t, ListUsersCreatedSinceID, designs.PageQuery{Key: key, Size: size, After: after})
}

// ListUsersByEmailPrefix is AP-05 (GSI1, Query): GSI1PK USER and GSI1SK
// beginning with EMAIL#<prefix>, in email order; the prefix ignores case
// like the emails. GSI reads are eventually consistent.
func (t Table) ListUsersByEmailPrefix(ctx context.Context, prefix string, size int, after designs.Cursor) (Page[User], error) {
	if NormalizeEmail(prefix) == "" {
		return Page[User]{}, fmt.Errorf("%s: prefix: %w: want at least one character", ListUsersByEmailPrefixID, designs.ErrInvalidInput)
	}
	key := partition("GSI1PK", UsersPK, "GSI1SK", EmailKey(prefix))
	return queryPage[User](ctx, t, ListUsersByEmailPrefixID, designs.PageQuery{Index: GSI1, Key: key, Size: size, After: after})
}

// CreateUser is AP-21 (main table, TransactWriteItems): the user and the
// item reserving its email are written together, each only if new. A taken
// email (in any case) is ErrEmailTaken, a taken user ID
// designs.ErrAlreadyExists; either way neither item is written.
func (t Table) CreateUser(ctx context.Context, u User) error {
	if err := checkUser(u); err != nil {
		return fmt.Errorf("%s: user %s: %w", CreateUserID, u.ID, err)
	}
	tx := designs.Tx{Table: t.Name}
	tx.Put(newUserItem(u), Schema.IsNew(), designs.Because(designs.ErrAlreadyExists))
	tx.Put(newUserEmailItem(u), Schema.IsNew(), designs.Because(ErrEmailTaken))
	if err := tx.Write(ctx, t.DB); err != nil {
		return fmt.Errorf("%s: user %s: %w", CreateUserID, u.ID, err)
	}
	return nil
}

func checkUser(u User) error {
	if err := checkName(u.Name); err != nil {
		return err
	}
	email := NormalizeEmail(u.Email)
	if len(email) > maxEmailLen || strings.Count(email, "@") != 1 || strings.HasPrefix(email, "@") || strings.HasSuffix(email, "@") {
		return fmt.Errorf("%w: email %q is not an address", designs.ErrInvalidInput, u.Email)
	}
	return checkEntity(u.ID, u.CreatedAt, u.UpdatedAt)
}
