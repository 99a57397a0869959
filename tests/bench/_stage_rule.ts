// Chat rule of the stage benchmark (loaded by the worker test server): the first
// line of the prompt says how long the answer is (`answer-chars: N`), as each
// stage's real answers are (a 400-word report, a label list, one digit).

/**
 * Answers with as many characters as the prompt's `answer-chars:` line asks. Token
 * usage is given as characters / 4, so the server does not count the prompt's
 * words: the server shares the machine's cores with the client it measures.
 */
export function stageShapeRule(
  req: { messages: { content: string }[] },
): { content: string; usage: { prompt_tokens: number; completion_tokens: number } } {
  const u = req.messages[req.messages.length - 1].content;
  const n = Number(/^answer-chars: (\d+)/.exec(u)?.[1] ?? 1);
  const word = "answer ";
  const chars = req.messages.reduce((sum, m) => sum + m.content.length, 0);
  return {
    content: word.repeat(Math.ceil(n / word.length)).slice(0, n),
    usage: { prompt_tokens: Math.ceil(chars / 4), completion_tokens: Math.ceil(n / 4) },
  };
}

/** Counts requests by their first two lines (`answer-chars: N`, `item <salt>-<i>`), not the whole prompt. */
export function stageKey(req: { messages: { content: string }[] }): string {
  const u = req.messages[req.messages.length - 1].content;
  const second = u.indexOf("\n", u.indexOf("\n") + 1);
  return second < 0 ? u : u.slice(0, second);
}
