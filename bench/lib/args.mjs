// The options every load bench shares: --quick (1 short round, nothing saved), --rounds N, --no-write.
export function loadBenchOptions(argv, defaultRounds = 5) {
  const roundsArg = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : undefined;
  if (roundsArg !== undefined && !(Number.isInteger(roundsArg) && roundsArg > 0)) throw new Error('--rounds needs a positive integer');
  const quick = argv.includes('--quick');
  return { quick, write: !quick && !argv.includes('--no-write'), rounds: roundsArg ?? (quick ? 1 : defaultRounds), seconds: quick ? 0.5 : 2 };
}
