"""`Moderator`: an operator's actions on accounts and addresses, each logged with who and why."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

from mines.server.common.errors import InvalidRequestError, NameTakenError, PlayerNotFoundError
from mines.server.db.storage import ACCOUNT_ACTIONS, AccountRow, Moderation, Storage
from mines.server.services.accounts import taken
from mines.server.services.names import check_scripts, skeletons, stored_name


def network(text: str) -> str:
    """An address or a network (CIDR) as it is stored: `203.0.113.7` is `203.0.113.7/32`,
    host bits cleared; `InvalidRequestError` for anything else."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise InvalidRequestError(
            f"expected an IPv4 or IPv6 address or network such as 203.0.113.7, 198.51.100.0/24 "
            f"or 2001:db8::/32, got {text!r}"
        ) from None


class Moderator:
    """Suspends, restores, renames, hides and shows accounts, blocks and unblocks networks.

    Every action is stored with the moderation log's entry (who, when, why) in one
    transaction: an action the log does not show was not done.
    """

    def __init__(self, storage: Storage, *, wall: Callable[[], float] = time.time):
        self.storage = storage
        self._wall = wall

    def account(self, name: str) -> AccountRow:
        """The account `name` (or a look-alike of it) names; `PlayerNotFoundError` else."""
        found = self.storage.find_account(skeletons(name)[0])
        if found is None:
            raise PlayerNotFoundError(f"no account has the name {name!r} (nor one like it)")
        return found

    def act(self, action: str, name: str, actor: str, reason: str) -> AccountRow:
        """Suspend (signed out everywhere, no sign-in, no rank), restore, hide (off the
        leaderboard, profile and races) or show again the account `name` names."""
        if action not in ACCOUNT_ACTIONS:
            allowed = ", ".join(ACCOUNT_ACTIONS)
            raise InvalidRequestError(f"expected one of {allowed}, got {action!r}")
        account = self.account(name)
        self.storage.moderate(
            Moderation(self._wall(), actor, action, account.name, reason, account.id)
        )
        return account

    def rename(self, name: str, new_name: str, actor: str, reason: str) -> str:
        """Give the account `name` names the name `new_name` (by the rule for new names); its
        games and results follow. The new name as stored."""
        account = self.account(name)
        shown = stored_name(new_name)
        skeleton, skeleton_cased = skeletons(shown)
        same = (skeleton, skeleton_cased) == (account.skeleton, account.skeleton_cased)
        if not same and not self.storage.name_free(skeleton, skeleton_cased):
            raise NameTakenError(taken(shown))
        check_scripts(shown)
        self.storage.moderate(
            Moderation(
                self._wall(),
                actor,
                "rename",
                account.name,
                reason,
                account.id,
                (shown, skeleton, skeleton_cased),
            )
        )
        return shown

    def block(self, text: str, actor: str, reason: str) -> tuple[str, bool]:
        """Refuse every request from a network; the network as stored, and whether it was
        not blocked already."""
        found = network(text)
        return found, self.storage.block(found, self._wall(), actor, reason)

    def unblock(self, text: str, actor: str, reason: str) -> tuple[str, bool]:
        found = network(text)
        return found, self.storage.unblock(found, self._wall(), actor, reason)
