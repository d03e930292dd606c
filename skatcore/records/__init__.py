"""Records: deal records (:mod:`.deal`), session records (:mod:`.session`),
International Skat Server games (:mod:`.iss`) and test vectors (:mod:`.vectors`)."""
