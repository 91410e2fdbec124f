"""Console output a harness captured in front of a reply, read away.

A pipeline that writes its submission from the process's output may keep what its libraries
printed before the reply: tqdm progress bars ("Loading checkpoint shards: 100%|██████████|
4/4 [00:03<00:00,  1.44it/s]"), a warning of the generation library ("The attention mask
and the pad token id were not set. ...", "Setting `pad_token_id` to `eos_token_id`:128001
for open-end generation."), a Python warning with the source line it points at. None of it
is the system's answer. When such lines fill CRAG's 75-token cut, the cut holds no answer.

Only lines at the start are read away, and only those that show a console's signature: a
reply rebuilt from a log ("INFO:__main__: The answer is ...") keeps its lines.
"""

from __future__ import annotations

import re

__all__ = ["without_console_noise"]

# A tqdm bar: a percentage, then the bar between pipes ("100%|██████████| 4/4"), cut anywhere
# after its percentage; or its plain-ASCII form ("100%|##########| 4/4").
_PROGRESS_BAR = re.compile(r"[^\n|]{0,80}?\b\d{1,3}%\|[█▉▊▋▌▍▎▏#\s]*(?:\|.*|\Z)")
# Warnings the generation libraries print on every call, by their opening words.
_LIBRARY_WARNING = re.compile(
    r"(?:The attention mask (?:and the pad token id were not set|is not set)"
    r"|Setting `pad_token_id` to `eos_token_id`"
    r"|A decoder-only architecture is being used, but right-padding was detected"
    r"|Starting from v\d+\.\d+, the `\w+`"
    r"|You are using the default legacy behaviour of the <class"
    r"|Special tokens have been added in the vocabulary"
    r"|`generation_config` default values have been modified"
    r"|Asking to truncate to max_length but no maximum length is provided"
    r"|Truncation was not explicitly activated but `max_length` is provided"
    r"|(?:Some weights of|All the weights of) \w+"
    r"|huggingface/tokenizers: The current process just got forked)"
    r".*",
)
# "/opt/venv/lib/python3.11/site-packages/transformers/generation/utils.py:1510: UserWarning:
# ...", then the line of source it quotes, indented.
_PYTHON_WARNING = re.compile(r"\S+\.py:\d+: \w*Warning: .*(?:\n[ \t]+\S.*)?")
_NOISE_LINE = re.compile(
    rf"[ \t]*(?:{_PROGRESS_BAR.pattern}|{_LIBRARY_WARNING.pattern}|{_PYTHON_WARNING.pattern})"
    r"[ \t]*(?:\r?\n|\r|$)"
)


def without_console_noise(text: str) -> str:
    """``text`` without the console lines in front of the reply; an empty string when there is
    nothing else. Text that does not open with such a line is returned as it is."""
    pos = 0
    while pos < len(text) and (m := _NOISE_LINE.match(text, pos)) is not None and m.end() > pos:
        pos = m.end()
    return text if pos == 0 else text[pos:].lstrip()
