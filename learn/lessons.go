package learn

// The tutorials of /learn: for each family of games a few positions, each
// teaching one rule of docs/rules/*.md by asking for one kind of move.
// Accept lists the moves that reach a step's goal; TestLearnLessons checks
// that it is exactly the set of legal moves that the goal describes.

// Tutorials builds the tutorials afresh, so that no caller can change
// what another reads.
func Tutorials() []Tutorial {
	return []Tutorial{pommelTutorial(), eximoTutorial(), checkersTutorial(), puntTutorial()}
}

func pommelTutorial() Tutorial {
	return Tutorial{
		Family: "pommel", Title: "Pommel", Rules: "pommel", King: "captain",
		Summary: "Checkers on hexagons, where a piece can leap a whole row of enemies in one bound.",
		Games:   []string{"pommel", "pommel-76"},
		Steps: []Step{{
			Title: "Step forward, hop over your own",
			Text: "Pommel is played on a board of hexagons; you play White, from the bottom. " +
				"Without capturing, a soldier moves in one of three directions: straight up its column, or up to the left or right. " +
				"It goes to the first empty cell that way: the next cell, or, when its own pieces stand in the way, " +
				"the cell after them, hopping over them all. A hop captures nothing.",
			Goal: "Move the soldier on c1 up to c4, over its two friends.",
			Done: "The soldier hopped over c2 and c3 and stopped on c4, the first empty cell. The pieces it passed stay where they are.",
			Game: "pommel", FEN: "W:Wc1,c2,c3:Bg5",
			goal: goal{kind: goalPath, from: "c1", to: "c4"}, Accept: []string{"c1-c4"},
		}, {
			Title: "Jump, and keep jumping",
			Text: "A piece captures by jumping an enemy piece next to it, in any of the six directions, backwards too, " +
				"onto the empty cell right behind it; the jumped piece leaves the board. " +
				"Capturing is compulsory: when you can capture, you must. After a jump the soldier must jump again while it can. " +
				"Among the captures you may choose any, not only the biggest.",
			Goal: "Take three black soldiers in one move.",
			Hint: "Look for the soldier whose first jump leads on to more.",
			Done: "Up column d, up to the right, then back down column f: three soldiers gone in one move.",
			Game: "pommel", FEN: "W:Wb2,d2:Bb3,d3,e4,f4",
			goal: goal{kind: goalCapture, n: 3}, Accept: []string{"d2xd4xf5xf3"},
		}, {
			Title: "Leap a whole row",
			Text: "Pommel's own capture is the leap: a row of two or more enemy pieces on one line, with an empty cell right behind it, " +
				"is taken all at once by jumping over the whole row. A leap always ends the move, even when more could be taken. " +
				"One enemy piece with an empty cell behind it is a jump; a piece cannot take just part of a row.",
			Goal: "Take two black soldiers with one leap.",
			Done: "The soldier leapt over d3 and d4 and landed on d5, taking both. The move ends there, although e5 could have been jumped next.",
			Game: "pommel", FEN: "W:Wd2,g2:Bd3,d4,e5,g3",
			goal: goal{kind: goalCapture, n: 2}, Accept: []string{"d2xd5"},
		}, {
			Title: "Become a captain",
			Text: "A soldier whose move ends on the last cell of a column, the top one for White, becomes a captain. " +
				"Only where the move ends counts: a soldier that passes a last cell in the middle of a chain and jumps on stays a soldier.",
			Goal: "Capture, and finish on a last cell to become a captain.",
			Hint: "The top cell of column d is d7.",
			Done: "The chain ended on d7, the top of column d: the soldier is a captain now, drawn with a ring.",
			Game: "pommel", FEN: "W:Wd3,f3:Bd4,d6,f4",
			goal: goal{kind: goalPromote}, Accept: []string{"d3xd5xd7"},
		}, {
			Title: "The captain's long jumps",
			Text: "A captain captures like a soldier, but it may first run over any number of empty cells along a line. " +
				"It lands on the cell right behind the piece it takes and must jump on while it can, again from afar. " +
				"Without capturing it slides along a line, but may only stop where it sees an enemy piece along some line with nothing in between.",
			Goal: "Take three black soldiers with the captain.",
			Hint: "There are two chains; one leaves a soldier standing.",
			Done: "Up column b to take b4, across to take d6, then down column e to take e3: three pieces.",
			Game: "pommel", FEN: "W:WKb1:Bb4,d6,e3",
			goal: goal{kind: goalCapture, n: 3}, Accept: []string{"b1xb5xe6xe2"},
		}},
	}
}

func eximoTutorial() Tutorial {
	return Tutorial{
		Family: "eximo", Title: "Eximo", Rules: "eximo", King: "king",
		Summary: "Men jump their friends, capture sideways, and leave the board on the far row to bring two new men home.",
		Games:   []string{"eximo"},
		Steps: []Step{{
			Title: "Jump over your own men",
			Text: "Eximo is played on all 64 squares of a chessboard; you play Black, from the bottom, and Black moves first. " +
				"A man steps one square forward or diagonally forward. When one of your own men stands next to it that way " +
				"with an empty square behind, it may jump over it instead; nothing is captured. " +
				"Once a man has jumped, it must go on jumping over your men while it can.",
			Goal: "Make a jumping move of two jumps.",
			Hint: "A man that jumps once and could jump again must do so.",
			Done: "The man on c2 jumped c3, and from c4 it had to jump again. Every landing square is written in the move.",
			Game: "eximo", FEN: "B:Wh8:Bc2,c3,b5,d5",
			goal: goal{kind: goalOwnJumps, n: 2}, Accept: []string{"c2-c4-a6", "c2-c4-e6"},
		}, {
			Title: "Capture chains",
			Text: "A man captures by jumping an enemy man next to it, forward, diagonally forward, to the left or to the right, " +
				"never backwards; the enemy man leaves the board. Capturing is compulsory, and so is going on: " +
				"after a capture the same man must capture again while it can. Which capture you start is up to you.",
			Goal: "Take two white men in one move.",
			Done: "After the first capture the man had to go on, and it took a second man.",
			Game: "eximo", FEN: "B:Wc4,c6,b5,f4,h8:Bc3,f3",
			goal: goal{kind: goalCapture, n: 2}, Accept: []string{"c3xc5xa5", "c3xc5xc7"},
		}, {
			Title: "The far row: leave and drop",
			Text: "A man that reaches the far row, row 8 for Black, leaves the board at once and its move ends. " +
				"In exchange you put two new men on empty squares of your drop zone, b1 to g1 and b2 to g2, as part of the same move " +
				"(one when only one square is empty, none when the zone is full). " +
				"Click the man, the far-row square, then two empty squares of the zone.",
			Goal: "Bring a man to the far row and drop two new men.",
			Done: "Your man left the board and two new men stand in your zone: reaching the far row gains a man.",
			Game: "eximo", FEN: "B:Wa5:Bc1,d1,e1,f1,g1,b2,d2,e2,f2,d7",
			goal: goal{kind: goalLeave, n: 2}, Accept: []string{
				"d7-c8@b1@c2", "d7-c8@b1@g2", "d7-c8@c2@g2",
				"d7-d8@b1@c2", "d7-d8@b1@g2", "d7-d8@c2@g2",
				"d7-e8@b1@c2", "d7-e8@b1@g2", "d7-e8@c2@g2",
			},
		}, {
			Title: "All the way across",
			Text: "A capture chain that lands on the far row leaves the board too, and the drops follow. " +
				"The zone is judged as the whole move has left it: the square your man started from, " +
				"and the squares of the men it took, count as empty.",
			Goal: "Capture four white men in one move.",
			Hint: "Men capture sideways as well as forward.",
			Done: "Four men taken, then your man left on d8 and two men came back into your zone. White has nothing left: you win.",
			Game: "eximo", FEN: "B:Wc2,d3,d5,d7:Bb1,c1,d1,e1,f1,g1,b2,e2,f2,g2",
			goal: goal{kind: goalCapture, n: 4}, Accept: []string{
				"b2xd2xd4xd6xd8@b2@c2", "b2xd2xd4xd6xd8@b2@d2", "b2xd2xd4xd6xd8@c2@d2",
			},
		}},
	}
}

func checkersTutorial() Tutorial {
	return Tutorial{
		Family: "checkers-2011", Title: "Checkers 2011", Rules: "checkers-2011", King: "king",
		Summary: "Captured pieces become prisoners under the captor, and enemy stacks caught between two of yours leave the board.",
		Games:   []string{"checkers-2011"},
		Steps: []Step{{
			Title: "Take a prisoner",
			Text: "Checkers 2011 is played on all 64 squares; you play White, from the bottom. " +
				"A soldier steps forward, diagonally forward or sideways, and captures by jumping an enemy stack forward or diagonally forward " +
				"onto the empty square behind it. The jumped piece is not removed: it goes under your piece as a prisoner, " +
				"and the stack moves as one, commanded by its top piece. Capturing is compulsory, " +
				"and only the captures with the most jumps may be played.",
			Goal: "Take the black king prisoner.",
			Done: "Your soldier carries the black king underneath. A prisoner keeps its rank: should it come back on top, it commands as a king again.",
			Game: "checkers-2011", FEN: "W:c3=w,d4=b,f3=w,g4=B,a8=b",
			goal: goal{kind: goalTakeKing}, Accept: []string{"f3xh5"},
		}, {
			Title: "Free a prisoner",
			Text: "A jump takes only the top piece of a stack; the rest stays where it is. " +
				"When the piece left on top is one of yours, it is free again and commands the stack. " +
				"Here a black soldier on d4 holds your king prisoner.",
			Goal: "Free your king.",
			Done: "The black soldier is your prisoner on e5, and your king on d4 is free, still a king.",
			Game: "checkers-2011", FEN: "W:c3=w,d4=Wb,f3=w,g4=b,h8=B",
			goal: goal{kind: goalLiberate}, Accept: []string{"c3xe5"},
		}, {
			Title: "Sandwich",
			Text: "After every move, look from the square where your stack stopped along the four straight lines: up, down, left and right. " +
				"An unbroken run of enemy stacks closed by one of your stacks is eliminated: those stacks leave the board, prisoners and all. " +
				"Diagonals never sandwich, and only the stack that moved looks.",
			Goal: "Eliminate two black stacks with one step.",
			Hint: "Look along row 4.",
			Done: "From e4 the line to the left holds d4 and c4, both Black's, closed by your b4: both stacks are gone, the white prisoner in c4 with them.",
			Game: "checkers-2011", FEN: "W:f3=w,b4=w,c4=wb,d4=B,h8=B",
			goal: goal{kind: goalEliminate, n: 2}, Accept: []string{"f3-e4"},
		}, {
			Title: "Round the corner",
			Text: "A run that reaches a corner turns and goes on along the other edge, " +
				"so a lone enemy stack in a corner falls to your stacks on its two neighbours. A king steps in all eight directions.",
			Goal: "Eliminate the black king in the corner.",
			Done: "From b1 the run went left to the corner a1, turned up the a file and met your a2: the king is gone.",
			Game: "checkers-2011", FEN: "W:c2=W,a1=B,a2=w,h8=B",
			goal: goal{kind: goalEliminate, n: 1}, Accept: []string{"c2-b1"},
		}, {
			Title: "Crown a king",
			Text: "A stack that ends its move on your last row, row 8 for White, with a soldier on top, is promoted: " +
				"its top piece becomes a king, which moves in all eight directions and jumps backwards too (never sideways). " +
				"Only the top piece is promoted; prisoners keep their rank.",
			Goal: "Promote your stack.",
			Done: "The top piece is a king now, drawn with a ring. The white soldier at the bottom of the stack stays a soldier.",
			Game: "checkers-2011", FEN: "W:d7=wbw,a1=B",
			goal: goal{kind: goalPromote}, Accept: []string{"d7-c8", "d7-d8", "d7-e8"},
		}},
	}
}

func puntTutorial() Tutorial {
	return Tutorial{
		Family: "punt", Title: "Punt", Rules: "punt", King: "king",
		Summary: "A race to the far edge: nothing is captured, pawns land on each other and whoever is on top controls the pile.",
		Games:   []string{"punt-match", "punt-heks-match", "punt-heks-match-3p"},
		Steps: []Step{{
			Title: "Race to your end row",
			Text: "Punt-Match is a race: you play White, from the bottom, and want pawns on your end row, the top row. " +
				"A single pawn moves one, two or three squares in a straight line, forward or sideways, never backwards nor diagonally, " +
				"and only over empty squares. A pawn on its own end row is frozen there for good, and it scores.",
			Goal: "Score a point: bring a pawn to row 7.",
			Done: "The pawn on d7 is frozen: it never moves again, and it counts for you when the game ends, unless an opponent lands on it.",
			Game: "punt-match", FEN: "W:b3=w,d4=w,c7=b,f6=b",
			goal: goal{kind: goalScore, n: 1}, Accept: []string{"d4-d7"},
		}, {
			Title: "Land on top",
			Text: "Nothing is ever captured in Punt. A pawn may stop on any pawn or pile, of any colour, and is put on top of it: " +
				"whoever owns the top pawn controls the whole pile, and the pawns underneath cannot move on their own.",
			Goal: "Take over the black pawn.",
			Done: "Your pawn sits on top of the black one: the pile of two is yours to move.",
			Game: "punt-match", FEN: "W:b3=w,d3=w,d5=b,g7=b",
			goal: goal{kind: goalTakeOver}, Accept: []string{"d3-d5"},
		}, {
			Title: "Piles are slower",
			Text: "A pile moves as one piece, in the same directions, but the taller it is, the shorter its moves: " +
				"a pile of two goes one or two squares, a pile of three or more only one. " +
				"A pile on your end row scores every pawn in it, of any colour.",
			Goal: "Score two points in one move.",
			Done: "Your pile of two stands on row 7: both its pawns count for you, the black one too.",
			Game: "punt-match", FEN: "W:a4=w,c5=bw,g7=b",
			goal: goal{kind: goalScore, n: 2}, Accept: []string{"c5-c7"},
		}, {
			Title: "The end and the score",
			Text: "On the board of hexagons a pawn has two forward directions, up to the left and up to the right, and two sideways. " +
				"The game ends when the player to move cannot move: every pile they control is frozen, or they control none. " +
				"Each player then scores the pawns in the piles they control on their own end row; the higher score wins. " +
				"Black's only pile here is frozen on Black's end row.",
			Goal: "Win the game with your move.",
			Hint: "Scores are even now; Black will have no move.",
			Done: "Black cannot move, so the game ends: you score 3, the pawn on i1 and the pile of two on i3, against Black's 2.",
			Game: "punt-heks-match", FEN: "W:a1=wb,h1=w,i3=bw",
			goal: goal{kind: goalWin}, Accept: []string{"h1-i1"},
		}, {
			Title: "Three players",
			Text: "Three can play on the hexagons, White, Black and Red, each racing to the edge opposite their own; play goes round in that order. " +
				"A pile is frozen only on the end row of the player who controls it: anyone may still land on it and take it over. " +
				"You play Black here, the board turned so that your home edge is at the bottom. " +
				"White's pawn on i3 stands frozen on White's end row, next to your pawn.",
			Goal: "Take over White's frozen pawn.",
			Done: "The pile on i3 is yours: White has lost the point it scored, and on your next turn the pile may move on.",
			Game: "punt-heks-match-3p", FEN: "B:a3=w,g6=r,i2=b,i3=w",
			goal: goal{kind: goalTakeOver}, Accept: []string{"i2-i3"},
		}},
	}
}
