"""Reserved words of the supported languages, excluded from a chunk's references."""

from __future__ import annotations

_WORDS = """
abstract actor and as assert associatedtype async await base begin bool boolean break byte
case catch char checked class companion const constexpr continue crate data debugger decimal
def default defer deinit del delete do double dyn echo elif else elsif end ensure enum explicit
export extends extension extern fallthrough false fi final finally float fn for foreach from
func function global go goto guard if impl implements import in include init inline instanceof
int interface internal is lambda lazy let long loop match mod module mut namespace native new
next nil none None nonlocal not null object of open operator or out override package pass
private protected protocol pub public raise readonly record redo ref register rescue retry
return sbyte sealed select self Self short signed sizeof static struct super switch
synchronized template then this throw throws trait transient true True try type typedef
typeof typename uint ulong unless unsafe unsigned until use ushort using val var virtual void
volatile when where while with yield False elseif endif endforeach endwhile esac done local
readonly export declare keyof infer satisfies unknown never any undefined string number
symbol bigint object sealed inner crossinline noinline reified tailrec vararg suspend
typealias fileprivate mutating nonmutating weak unowned inout required convenience dynamic
implicit forSome lazy given using then derive usize isize u8 u16 u32 u64 u128 i8 i16 i32 i64
i128 f32 f64 str auto void fun define ifdef ifndef endif pragma undef
"""

KEYWORDS: frozenset[str] = frozenset(_WORDS.split())
